import type { CountOp, SegmentView, TagCondition, EventCondition } from '../../../../src/schemas/segment.ts';
import type { ConditionOp, EventDataCondition } from '../../../../src/schemas/event-conditions.ts';
import { formatConditionValue, parseConditionValue, type ValueType } from '../condition-values.ts';

/** A tag's or an event data field's comparison, as typed: the value stays text until it is sent. */
export interface DraftComparison {
  key: string;
  op: ConditionOp;
  value: string;
  valueType: ValueType;
}

export type DraftCondition =
  | ({ kind: 'tag' } & DraftComparison)
  | { kind: 'event'; event: string; withinDays: string; countOp: CountOp; count: string; where: DraftComparison[] };

export const newComparison = (): DraftComparison => ({ key: '', op: 'eq', value: '', valueType: 'auto' });
export const newTagCondition = (): DraftCondition => ({ kind: 'tag', ...newComparison() });
export const newEventCondition = (): DraftCondition => ({
  kind: 'event',
  event: '',
  withinDays: '30',
  countOp: 'gte',
  count: '1',
  where: [],
});

/** The op and value the API takes. */
function comparisonOf(draft: DraftComparison): { op: ConditionOp; value?: unknown } {
  if (draft.op === 'exists' || draft.op === 'notExists') return { op: draft.op };
  return {
    op: draft.op,
    value: parseConditionValue(draft.value, draft.valueType, draft.op === 'in' || draft.op === 'nin'),
  };
}

/**
 * A count or a number of days as typed. A blank field stays text, which the API refuses naming the field: Number('')
 * is 0, and "at least 0 times" matches every device.
 */
const wholeNumber = (text: string): number => (text.trim() === '' ? (text as unknown as number) : Number(text));

/** An event's data conditions as the API takes them; a row with no data field yet is left out. */
export const whereOf = (drafts: DraftComparison[]): EventDataCondition[] =>
  drafts
    .filter((comparison) => comparison.key !== '')
    .map((comparison) => ({ field: comparison.key, ...comparisonOf(comparison) }));

export function toCondition(draft: DraftCondition): TagCondition | EventCondition {
  if (draft.kind === 'tag') return { tag: draft.key, ...comparisonOf(draft) };
  const where = whereOf(draft.where);
  return {
    event: draft.event,
    withinDays: wholeNumber(draft.withinDays),
    count: { op: draft.countOp, value: wholeNumber(draft.count) },
    ...(where.length > 0 && { where }),
  };
}

function toComparison(key: string, op: ConditionOp, value: unknown): DraftComparison {
  const { text, valueType } = formatConditionValue(value);
  return { key, op, value: text, valueType };
}

/** Saved data conditions as the builder shows them. */
export const whereDraftOf = (where: EventDataCondition[] | undefined): DraftComparison[] =>
  (where ?? []).map((comparison) => toComparison(comparison.field, comparison.op, comparison.value));

export function toDraft(condition: TagCondition | EventCondition): DraftCondition {
  if ('tag' in condition) return { kind: 'tag', ...toComparison(condition.tag, condition.op, condition.value) };
  const where = whereDraftOf(condition.where);
  return {
    kind: 'event',
    event: condition.event,
    withinDays: String(condition.withinDays),
    countOp: condition.count.op,
    count: String(condition.count.value),
    where,
  };
}

/** What the editor holds for a segment as saved, or for a new one. */
export function editorState(segment: SegmentView | null) {
  return {
    name: segment?.name ?? '',
    match: segment?.match ?? 'all',
    conditions: segment ? segment.conditions.map(toDraft) : [newTagCondition()],
  };
}
