import type { Deps } from '../deps.ts';
import type { JourneyDocument, JourneyVersionDocument } from '../models/journey.ts';
import { readJourneyVersion } from './journey-version.ts';

export type StoredJourney = JourneyDocument & { _id: string; createdAt: Date; updatedAt: Date };
export type JourneyVersion = JourneyVersionDocument & { _id: string };

/** A project's journeys that are not drafts, with every version their travellers may be on. */
export interface ProjectJourneys {
  journeys: StoredJourney[];
  versions: Map<string, JourneyVersion>;
  /** Event types some entry, exit or waitForEvent rule names: any other event costs no read. */
  eventTypes: Set<string>;
}

function eventTypesOf(versions: Iterable<JourneyVersion>): Set<string> {
  const types = new Set<string>();
  for (const version of versions) {
    types.add(version.entry.event);
    for (const rule of version.exit) types.add(rule.event);
    for (const step of version.steps) if (step.type === 'waitForEvent') types.add(step.event);
  }
  return types;
}

interface Cached {
  version: string;
  journeys: Promise<ProjectJourneys>;
}

/**
 * The journeys of each project, kept by an event-ingest worker between jobs. A job costs one Redis GET (the project's
 * journey version, bumped by every journey write); the journeys are read again only when it changed.
 */
export class ActiveJourneys {
  private readonly deps: Pick<Deps, 'models' | 'redis' | 'config'>;
  private readonly capacity: number;
  private readonly cache = new Map<string, Cached>();

  constructor(deps: Pick<Deps, 'models' | 'redis' | 'config'>, capacity = 1000) {
    this.deps = deps;
    this.capacity = capacity;
  }

  private async read(projectId: string): Promise<ProjectJourneys> {
    const { models } = this.deps;
    const journeys = await models.Journey.find({ projectId, status: { $in: ['active', 'paused'] } })
      .lean<StoredJourney[]>()
      .exec();
    const ids = journeys.map((journey) => journey._id);
    const stored =
      ids.length === 0 ? [] : await models.JourneyVersion.find({ journeyId: { $in: ids } }).lean<JourneyVersion[]>();
    const versions = new Map(stored.map((version) => [version._id, version]));
    return { journeys, versions, eventTypes: eventTypesOf(versions.values()) };
  }

  async forProject(projectId: string): Promise<ProjectJourneys> {
    const version = await readJourneyVersion(this.deps, projectId);
    const cached = this.cache.get(projectId);
    if (cached && cached.version === version) return cached.journeys;
    const journeys = this.read(projectId);
    this.cache.delete(projectId);
    this.cache.set(projectId, { version, journeys });
    journeys.catch(() => this.cache.delete(projectId));
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    return journeys;
  }
}
