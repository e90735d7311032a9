import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { ActiveJourneys } from './active-journeys.ts';
import type { ProjectSettingsCache } from '../projects/project-settings-cache.ts';
import type { StepDeps } from './steps/step-context.ts';

/** What the event-ingest worker reads of a subject's visit of a journey. */
export type TravelDeps = StepDeps & { activeJourneys: ActiveJourneys; settings: ProjectSettingsCache };
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
  | 'dueAt'
  | 'seq'
  | 'waitingIn'
> & { _id: string };
