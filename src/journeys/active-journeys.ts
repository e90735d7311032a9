import type { Deps } from '../deps.ts';
import type { StoredJourney } from './journey-store.ts';
import { readJourneyVersion } from './journey-version.ts';

interface CachedJourneys {
  version: string;
  journeys: Promise<StoredJourney[]>;
}

/**
 * The active journeys of each project, kept by an event-ingest worker between jobs. A job costs one Redis GET (the
 * project's journey version, bumped by every journey write); the journeys are read again only when it changed.
 */
export class ActiveJourneys {
  private readonly deps: Pick<Deps, 'models' | 'redis' | 'config'>;
  private readonly capacity: number;
  private readonly cache = new Map<string, CachedJourneys>();

  constructor(deps: Pick<Deps, 'models' | 'redis' | 'config'>, capacity = 1000) {
    this.deps = deps;
    this.capacity = capacity;
  }

  async forProject(projectId: string): Promise<StoredJourney[]> {
    const version = await readJourneyVersion(this.deps, projectId);
    const cached = this.cache.get(projectId);
    if (cached && cached.version === version) return cached.journeys;
    const journeys = this.deps.models.Journey.find({ projectId, active: true }).lean<StoredJourney[]>().exec();
    this.cache.delete(projectId);
    this.cache.set(projectId, { version, journeys });
    journeys.catch(() => this.cache.delete(projectId));
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    return journeys;
  }
}
