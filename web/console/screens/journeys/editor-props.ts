import type { StepType } from '../../../../src/schemas/journey-steps.ts';
import type { StepError } from './journey-errors.ts';
import type { DraftOf, StepDraft } from './step-draft.ts';

/** What each step type's editor gets: its step, the journey's steps (for targets), and the API's errors on it. */
export interface EditorProps<T extends StepType> {
  step: DraftOf<T>;
  index: number;
  steps: StepDraft[];
  onChange(next: DraftOf<T>): void;
  errors: StepError[];
}

/** The errors on one field of the step (its first part of the API's path), for that field to show. */
export const errorOn = (errors: StepError[], field: string): string | undefined =>
  errors
    .filter((error) => error.field === field)
    .map((error) => error.sentence)
    .join(' ') || undefined;
