import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { JourneyDocument } from '../models/journey.ts';
import { JourneyContentRule, type JourneyBody, type JourneyView } from '../schemas/journey.ts';
import { invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import { bodyPartErrors, fieldsOf } from '../schemas/validation.ts';
import { payloadFloorErrors, storedContentErrors } from '../rendering/payload-floor.ts';
import { contentOf, contentSyntaxErrors, templateSyntaxErrors } from '../rendering/message-content.ts';
import { contentTrial, trialsErrors } from '../rendering/trial-render.ts';
import { optionContentErrors, optionTrials } from '../rendering/option-content-errors.ts';
import { optionsOf, silentRule } from '../schemas/message-options.ts';
import { whereValueErrors } from '../conditions/condition-values.ts';
import type { TemplateStore } from '../templates/template-store.ts';
import { bumpJourneyVersion } from './journey-version.ts';
import { cancelJourneySends } from './cancel-journey-sends.ts';
import { sendTimingOf } from '../schemas/send-timing.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';

export type StoredJourney = JourneyDocument & { _id: string; createdAt: Date; updatedAt: Date };

const missing = (journeyId: string) => notFound(`No journey "${journeyId}" in this project.`);

/** What the schema cannot say; also read on a body that failed it, each check on the fields it can read. */
export function journeyDefinitionErrors(input: unknown): ErrorDetail[] {
  const fields = fieldsOf(input);
  const where = fieldsOf(fields.trigger).where;
  const details = [
    ...(Array.isArray(where) ? whereValueErrors(where, '/trigger/where') : []),
    ...bodyPartErrors(JourneyContentRule, input, ''),
    ...bodyPartErrors(silentRule(false), input, ''),
    ...optionContentErrors(input),
  ];
  // Like the blank-body rule, only a journey that can send must fit a push: one stored too large before this rule can
  // still be paused.
  if (typeof fields.templateId !== 'string')
    details.push(...(fields.active === false ? contentSyntaxErrors(fields) : storedContentErrors(fields)));
  return details;
}

function storedFields(input: JourneyBody) {
  return {
    name: input.name,
    trigger: { event: input.trigger.event, where: input.trigger.where ?? [] },
    delaySeconds: input.delaySeconds ?? 0,
    templateId: input.templateId ?? null,
    title: input.title ?? null,
    body: input.body ?? null,
    url: input.url ?? null,
    imageUrl: input.imageUrl ?? null,
    active: input.active ?? true,
    ignoreQuietHours: input.ignoreQuietHours ?? false,
    ignoreFrequencyCap: input.ignoreFrequencyCap ?? false,
    options: optionsOf(input),
  };
}

export function toJourneyView(journey: StoredJourney): JourneyView {
  return {
    id: journey._id,
    name: journey.name,
    trigger: journey.trigger,
    delaySeconds: journey.delaySeconds ?? 0,
    templateId: journey.templateId ?? null,
    title: journey.title ?? null,
    body: journey.body ?? null,
    url: journey.url ?? null,
    imageUrl: journey.imageUrl ?? null,
    active: journey.active ?? false,
    ...journey.options,
    createdAt: journey.createdAt.toISOString(),
    updatedAt: journey.updatedAt.toISOString(),
    ...sendTimingOf({
      ignoreQuietHours: journey.ignoreQuietHours ?? false,
      ignoreFrequencyCap: journey.ignoreFrequencyCap ?? false,
    }),
  };
}

type JourneyStoreDeps = Pick<Deps, 'models' | 'queues' | 'redis' | 'config' | 'renderer'> & {
  templates: TemplateStore;
};

/**
 * Journeys are checked when written (Liquid, trigger conditions, template), so a triggered send never meets a broken
 * one. Every write tells the event-ingest workers to reload the project's active journeys; deactivating or deleting
 * a journey cancels the sends it has pending.
 */
export class JourneyStore {
  private readonly deps: JourneyStoreDeps;

  constructor(deps: JourneyStoreDeps) {
    this.deps = deps;
  }

  private async validate(projectId: string, input: JourneyBody): Promise<void> {
    const details = journeyDefinitionErrors(input);
    if (details.length > 0) throw invalidRequest('The journey is not valid; see details for each field.', details);
    // Like the blank-body rule, only a journey that can send needs its template: one whose template was deleted can
    // still be paused.
    if (input.active === false) return;
    const fromTemplate = typeof input.templateId === 'string';
    const template = fromTemplate ? await this.deps.templates.find(projectId, input.templateId!) : null;
    const content = contentOf(template ?? input);
    if (template) {
      // A template stored before a rule of today (fit a push, valid Liquid): refused here as a send naming it is. Its
      // buttons and languages go in place of the journey's, as when it fires.
      const stale = templateSyntaxErrors(content);
      const { buttons = input.buttons, localizations = input.localizations } = optionsOf(template);
      const errors =
        stale.length > 0
          ? stale
          : payloadFloorErrors(
              { content, data: {}, buttons, localizations },
              { content: true, buttons: !!template.buttons, localizations: !!template.localizations },
            );
      if (errors.length > 0) throw invalidRequest('The journey is not valid; see details for each field.', errors);
    }
    const entryEvent = { type: input.trigger.event, data: {} };
    const { renderer } = this.deps;
    const trials = [contentTrial(content, fromTemplate), ...(template ? [] : optionTrials(content, optionsOf(input)))];
    const unrenderable = await trialsErrors(renderer, projectId, trials, { entryEvent });
    if (unrenderable.length > 0)
      throw invalidRequest('The journey is not valid; see details for each field.', unrenderable);
  }

  async create(projectId: string, input: JourneyBody): Promise<StoredJourney> {
    await this.validate(projectId, input);
    const document = await this.deps.models.Journey.create({ _id: randomUUID(), projectId, ...storedFields(input) });
    await bumpJourneyVersion(this.deps, projectId);
    return document.toObject();
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

  async replace(projectId: string, journeyId: string, input: JourneyBody): Promise<StoredJourney> {
    await this.validate(projectId, input);
    const journey = await this.deps.models.Journey.findOneAndUpdate(
      { _id: journeyId, projectId },
      { $set: storedFields(input) },
      { returnDocument: 'after' },
    ).lean<StoredJourney>();
    if (!journey) throw missing(journeyId);
    await bumpJourneyVersion(this.deps, projectId);
    if (!journey.active) await cancelJourneySends(this.deps, journeyId);
    return journey;
  }

  async delete(projectId: string, journeyId: string): Promise<void> {
    const result = await this.deps.models.Journey.deleteOne({ _id: journeyId, projectId });
    if (result.deletedCount === 0) throw missing(journeyId);
    await bumpJourneyVersion(this.deps, projectId);
    await cancelJourneySends(this.deps, journeyId);
  }
}
