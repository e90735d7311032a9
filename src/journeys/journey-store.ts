import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { journeyVersionId } from '../models/journey.ts';
import type { StoredJourney } from './active-journeys.ts';
import type { JourneyBody, JourneyDefinition, JourneyView } from '../schemas/journey.ts';
import type { StepOf } from '../schemas/journey-steps.ts';
import { invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import type { TemplateStore } from '../templates/template-store.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';
import { bumpJourneyVersion } from './journey-version.ts';
import { cancelJourneySends } from './cancel-journey-sends.ts';
import { journeyDefinitionErrors } from './journey-definition-errors.ts';
import { definitionOf, isLegacyJourney, legacyErrorPath } from './legacy-journey.ts';
import { pushStepCheckErrors } from './push-step-checks.ts';
import { endTravellers, holdTravellers } from './traveller-states.ts';

const missing = (journeyId: string) => notFound(`No journey "${journeyId}" in this project.`);
const notValid = (details: ErrorDetail[]) =>
  invalidRequest('The journey is not valid; see details for each field.', details);

export function toJourneyView(journey: StoredJourney): JourneyView {
  return {
    id: journey._id,
    name: journey.name,
    status: journey.status,
    entry: journey.entry,
    ...(journey.audience && { audience: journey.audience }),
    reentry: journey.reentry,
    exit: journey.exit,
    steps: journey.steps,
    version: journey.version,
    createdAt: journey.createdAt.toISOString(),
    updatedAt: journey.updatedAt.toISOString(),
  };
}

type JourneyStoreDeps = Pick<Deps, 'models' | 'queues' | 'redis' | 'config'> & {
  templates: TemplateStore;
  renderer: RenderPool;
};

/**
 * Journeys are checked whole when written (every step's rules, Liquid, targets, templates, the audience), so a
 * traveller never meets a broken step. Every write makes a new version, which travellers entering later take, and
 * tells the event-ingest workers to reload the project's journeys.
 */
export class JourneyStore {
  private readonly deps: JourneyStoreDeps;

  constructor(deps: JourneyStoreDeps) {
    this.deps = deps;
  }

  private async validate(projectId: string, input: JourneyBody): Promise<JourneyDefinition> {
    const details = journeyDefinitionErrors(input);
    if (details.length > 0) throw notValid(details);
    const definition = definitionOf(input);
    const legacy = isLegacyJourney(input);
    // Only a journey that can send needs its templates and content to fit a push: one whose template was deleted, or
    // stored before today's rules, can still be paused.
    if (definition.status !== 'active') return definition;
    const checks: ErrorDetail[] = [];
    if (definition.audience) {
      const found = await this.deps.models.Segment.exists({ projectId, _id: definition.audience.segmentId });
      if (!found) checks.push({ path: '/audience/segmentId', message: 'names no segment of this project' });
    }
    for (const [index, step] of definition.steps.entries()) {
      if (step.type !== 'push') continue;
      const errors = await pushStepCheckErrors(this.deps, projectId, step as StepOf<'push'>, definition.entry.event);
      checks.push(...errors.map((detail) => ({ ...detail, path: `/steps/${index}${detail.path}` })));
    }
    if (checks.length > 0) throw notValid(legacy ? checks.map(legacyErrorPath) : checks);
    return definition;
  }

  private async storeVersion(projectId: string, journeyId: string, version: number, definition: JourneyDefinition) {
    const { status: _status, ...fields } = definition;
    await this.deps.models.JourneyVersion.updateOne(
      { _id: journeyVersionId(journeyId, version) },
      { $setOnInsert: { projectId, journeyId, version, ...fields } },
      { upsert: true },
    );
  }

  async create(projectId: string, input: JourneyBody): Promise<StoredJourney> {
    const definition = await this.validate(projectId, input);
    const _id = randomUUID();
    await this.storeVersion(projectId, _id, 1, definition);
    const document = await this.deps.models.Journey.create({ _id, projectId, ...definition, version: 1 });
    await bumpJourneyVersion(this.deps, projectId);
    return document.toObject() as StoredJourney;
  }

  private readonly listing = newestFirstListing<StoredJourney>((filter, count) =>
    this.deps.models.Journey.find(filter).sort(newestFirst).limit(count).lean<StoredJourney[]>(),
  );
  readonly list = this.listing.list;
  readonly boundary = this.listing.boundary;

  async find(projectId: string, journeyId: string): Promise<StoredJourney> {
    const journey = await this.deps.models.Journey.findOne({ _id: journeyId, projectId }).lean<StoredJourney>();
    if (!journey) throw missing(journeyId);
    return journey;
  }

  /** A new version: the version is stored before the journey points at it, so a traveller never names a missing one. */
  async replace(projectId: string, journeyId: string, input: JourneyBody): Promise<StoredJourney> {
    const definition = await this.validate(projectId, input);
    const current = await this.find(projectId, journeyId);
    const version = current.version + 1;
    await this.storeVersion(projectId, journeyId, version, definition);
    const journey = await this.deps.models.Journey.findOneAndUpdate(
      { _id: journeyId, projectId },
      { $set: { ...definition, version } },
      { returnDocument: 'after' },
    ).lean<StoredJourney>();
    if (!journey) throw missing(journeyId);
    await bumpJourneyVersion(this.deps, projectId);
    await holdTravellers(this.deps.models, journeyId, journey.status !== 'active');
    return journey;
  }

  /** Its travellers exit at once; pushes of the first form still waiting for their delay are canceled. */
  async delete(projectId: string, journeyId: string): Promise<void> {
    const result = await this.deps.models.Journey.deleteOne({ _id: journeyId, projectId });
    if (result.deletedCount === 0) throw missing(journeyId);
    await bumpJourneyVersion(this.deps, projectId);
    await endTravellers(this.deps, journeyId, 'journey_deleted');
    await cancelJourneySends(this.deps, journeyId);
  }
}
