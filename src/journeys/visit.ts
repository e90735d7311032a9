import type { Deps } from '../deps.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { ActiveJourneys } from './active-journeys.ts';

/** What the event-ingest worker reads of a subject's visit of a journey. */
export type TravelDeps = Pick<Deps, 'models' | 'redis' | 'config'> & { activeJourneys: ActiveJourneys };
export type Visit = Pick<
  TravellerDocument,
  | 'journeyId'
  | 'version'
  | 'visit'
  | 'state'
  | 'entryEvent'
  | 'entryEventId'
  | 'endedAt'
  | 'listening'
  | 'seq'
  | 'waitingIn'
> & { _id: string };
