import type { BranchCondition } from '../../../../src/schemas/journey-steps.ts';
import type { EventCondition, TagCondition } from '../../../../src/schemas/segment.ts';
import { type DraftCondition, newTagCondition, toCondition, toDraft } from '../segments/draft.ts';

/** A branch's condition as edited: a segment's tag or event condition, a click on a push step, or a conversion. */
export type BranchConditionDraft =
  | { kind: 'segment'; condition: DraftCondition }
  | { kind: 'clicked'; step: string }
  | { kind: 'converted'; event: string };
export type BranchConditionKind = BranchConditionDraft['kind'];

export function newBranchCondition(kind: BranchConditionKind): BranchConditionDraft {
  if (kind === 'clicked') return { kind, step: '' };
  if (kind === 'converted') return { kind, event: '' };
  return { kind, condition: newTagCondition() };
}

export function draftOfBranchCondition(condition: unknown): BranchConditionDraft {
  const fields = condition as Record<string, unknown>;
  if (typeof fields.clicked === 'string') return { kind: 'clicked', step: fields.clicked };
  if (typeof fields.converted === 'string') return { kind: 'converted', event: fields.converted };
  return { kind: 'segment', condition: toDraft(condition as TagCondition | EventCondition) };
}

export function branchConditionOf(draft: BranchConditionDraft): BranchCondition {
  if (draft.kind === 'clicked') return { clicked: draft.step };
  if (draft.kind === 'converted') return { converted: draft.event };
  return toCondition(draft.condition);
}
