import type { Deps } from '../../deps.ts';
import type { Listening, TravellerDocument } from '../../models/journey-traveller.ts';
import type { StepOf, StepType } from '../../schemas/journey-steps.ts';
import type { JourneyVersion } from '../active-journeys.ts';
import { defaultNext } from '../journey-graph.ts';

export type Traveller = TravellerDocument & { _id: string };

/** Where a step sends one traveller, and what the traveller lookup shows of it. */
export interface StepResult {
  next: string;
  /** When the next step is due; now when absent. */
  dueAt?: Date;
  /** Set when the traveller stays at a waitForEvent step, listening. */
  listening?: Listening;
  /** The wait or waitForEvent step it now waits in. */
  waitingIn?: string;
  /** Recorded in its passed steps; none while a waitForEvent step starts to wait. */
  outcome: Record<string, unknown> | null;
}

export type StepDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'queues' | 'log'>;

export interface StepContext {
  deps: StepDeps;
  /** The project's defaultTimezone, read at most once a second per project. */
  defaultZone(projectId: string): Promise<string>;
  projectId: string;
  journeyId: string;
  version: JourneyVersion;
  /** The claim of this batch: the key of what the step writes, so that a run taken over writes the same. */
  runId: string;
  now: Date;
}

/** A step run for the travellers at it in one batch: the results of those it could run (the others run again). */
export type StepRun<Type extends StepType> = (
  context: StepContext,
  step: StepOf<Type>,
  travellers: Traveller[],
) => Promise<Map<string, StepResult>>;

/** The step's `next`, else the one after it in the list, else exit. */
export function nextOf(version: JourneyVersion, step: { id: string; next?: string }): string {
  return (
    step.next ??
    defaultNext(
      version.steps,
      version.steps.findIndex((candidate) => candidate.id === step.id),
    )
  );
}

export function sameResult(travellers: Traveller[], result: StepResult): Map<string, StepResult> {
  return new Map(travellers.map((traveller) => [traveller._id, result]));
}
