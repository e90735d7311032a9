import type { StepType } from '../../../../src/schemas/journey-steps.ts';
import type { JourneyView } from '../../../../src/schemas/journey.ts';
import { formatConditionValue, parseConditionValue } from '../condition-values.ts';
import { type BranchConditionDraft, branchConditionOf, draftOfBranchCondition } from './branch-draft.ts';
import { type Duration, durationOf, secondsOf } from './duration.ts';
import { type PushDraft, pushDraftOf, pushFieldsOf } from './push-draft.ts';
import { type DraftComparison, whereDraftOf, whereOf } from '../segments/draft.ts';
import type { EventDataCondition } from '../../../../src/schemas/event-conditions.ts';

export type StoredStep = JourneyView['steps'][number];
/** Where a traveller goes is a step's id, or "exit"; '' in `next` is the step after it in the list. */

export interface SplitPathDraft {
  name: string;
  percent: string;
  next: string;
}
export interface TagRow {
  key: string;
  value: string;
  remove: boolean;
}

interface Common {
  id: string;
  next: string;
}
/** A step as the builder edits it, one shape per type (CONTRACTS §18): numbers and values stay text until saved. */
export type StepDraft = Common &
  (
    | { type: 'wait'; mode: 'delay' | 'localTime'; delay: Duration; time: string }
    | {
        type: 'waitForEvent';
        event: string;
        timeout: Duration;
        sameAs: string;
        where: DraftComparison[];
        onEvent: string;
        onTimeout: string;
      }
    | { type: 'branch'; match: 'all' | 'any'; conditions: BranchConditionDraft[]; onTrue: string; onFalse: string }
    | { type: 'split'; paths: SplitPathDraft[] }
    | { type: 'push'; push: PushDraft }
    | { type: 'setTags'; tags: TagRow[] }
    | { type: 'webhook' }
  );
export type DraftOf<T extends StepType> = Extract<StepDraft, { type: T }>;

/** Steps that choose between targets of their own, and take no `next`. */
export const routesItself = (draft: StepDraft) =>
  draft.type === 'branch' || draft.type === 'split' || draft.type === 'waitForEvent';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const listText = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '');
export const listOf = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** An event rule's data conditions, left out when there are none. */
export function wherePart(where: DraftComparison[]) {
  const conditions = whereOf(where);
  return conditions.length > 0 ? { where: conditions } : {};
}

export function draftOf(step: StoredStep): StepDraft {
  const fields = step as Record<string, unknown>;
  const common = { id: step.id, next: text(fields.next) };
  switch (step.type) {
    case 'wait':
      return typeof fields.untilLocalTime === 'string'
        ? { ...common, type: 'wait', mode: 'localTime', delay: durationOf(3600), time: fields.untilLocalTime }
        : { ...common, type: 'wait', mode: 'delay', delay: durationOf(fields.seconds), time: '09:00' };
    case 'waitForEvent':
      return {
        ...common,
        type: 'waitForEvent',
        event: text(fields.event),
        timeout: durationOf(fields.timeoutSeconds),
        sameAs: listText(fields.sameAs),
        where: whereDraftOf(fields.where as EventDataCondition[] | undefined),
        onEvent: text(fields.onEvent),
        onTimeout: text(fields.onTimeout),
      };
    case 'branch':
      return {
        ...common,
        type: 'branch',
        match: fields.match === 'any' ? 'any' : 'all',
        conditions: (Array.isArray(fields.conditions) ? fields.conditions : []).map(draftOfBranchCondition),
        onTrue: text(fields.onTrue),
        onFalse: text(fields.onFalse),
      };
    case 'split':
      return {
        ...common,
        type: 'split',
        paths: (Array.isArray(fields.paths) ? (fields.paths as Record<string, unknown>[]) : []).map((path) => ({
          name: text(path.name),
          percent: String(path.percent ?? ''),
          next: text(path.next),
        })),
      };
    case 'push':
      return { ...common, type: 'push', push: pushDraftOf(fields) };
    case 'setTags':
      return {
        ...common,
        type: 'setTags',
        tags: Object.entries((fields.tags ?? {}) as Record<string, unknown>).map(([key, value]) => ({
          key,
          value: value === null ? '' : formatConditionValue(value).text,
          remove: value === null,
        })),
      };
    default:
      return { ...common, type: 'webhook' };
  }
}

/** The step the API takes: blank optional fields left out, so that the API names only what is wrong. */
export function stepOf(draft: StepDraft): Record<string, unknown> {
  const common = {
    id: draft.id,
    type: draft.type,
    ...(!routesItself(draft) && draft.next !== '' && { next: draft.next }),
  };
  switch (draft.type) {
    case 'wait':
      return {
        ...common,
        ...(draft.mode === 'delay' ? { seconds: secondsOf(draft.delay) } : { untilLocalTime: draft.time }),
      };
    case 'waitForEvent': {
      const sameAs = listOf(draft.sameAs);
      return {
        ...common,
        event: draft.event,
        ...wherePart(draft.where),
        ...(sameAs.length > 0 && { sameAs }),
        timeoutSeconds: secondsOf(draft.timeout),
        onEvent: draft.onEvent,
        onTimeout: draft.onTimeout,
      };
    }
    case 'branch':
      return {
        ...common,
        match: draft.match,
        conditions: draft.conditions.map(branchConditionOf),
        onTrue: draft.onTrue,
        onFalse: draft.onFalse,
      };
    case 'split':
      return {
        ...common,
        paths: draft.paths.map((path) => ({
          name: path.name,
          percent: /^\d+$/.test(path.percent.trim()) ? Number(path.percent) : path.percent,
          next: path.next,
        })),
      };
    case 'push':
      return { ...common, ...pushFieldsOf(draft.push) };
    case 'setTags':
      return {
        ...common,
        tags: Object.fromEntries(
          draft.tags.map((row) => [row.key, row.remove ? null : parseConditionValue(row.value, 'auto', false)]),
        ),
      };
    default:
      return common;
  }
}
