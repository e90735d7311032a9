import type { ConditionOp } from '../../../../src/schemas/event-conditions.ts';
import type { StepType } from '../../../../src/schemas/journey-steps.ts';
import { countOps } from '../segments/condition-editor.tsx';
import type { BranchConditionDraft } from './branch-draft.ts';
import type { DraftComparison } from '../segments/draft.ts';
import { durationWords, secondsOf } from './duration.ts';
import type { StepDraft } from './step-draft.ts';

export const stepTypeWords: Record<StepType, string> = {
  wait: 'Wait',
  push: 'Send a push',
  waitForEvent: 'Wait for an event',
  branch: 'Branch: yes or no',
  split: 'Split at random',
  setTags: 'Set tags',
  webhook: 'Notify your webhooks',
};

const quoted = (text: string) => `“${text}”`;
const seconds = (value: ReturnType<typeof secondsOf>) =>
  typeof value === 'number' ? durationWords(value) : `${String(value)} (not a number)`;

/** Operators as a sentence says them. */
const opWords: Record<ConditionOp, string> = {
  eq: 'is',
  ne: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
  nin: 'is none of',
  exists: 'is set',
  notExists: 'is not set',
};

/** An event's data conditions as the end of a sentence: " whose amount is at least 50". */
const whereWords = (where: DraftComparison[]) =>
  where
    .filter((comparison) => comparison.key !== '')
    .map((comparison, at) =>
      `${at === 0 ? ' whose' : ' and'} ${comparison.key} ${opWords[comparison.op]} ${comparison.value}`.trimEnd(),
    )
    .join('');

function conditionWords(condition: BranchConditionDraft): string {
  if (condition.kind === 'clicked') return `clicked the push of ${condition.step || '…'}`;
  if (condition.kind === 'converted') return `converted on ${condition.event || '…'}`;
  const draft = condition.condition;
  if (draft.kind === 'tag') return `tag ${draft.key || '…'} ${opWords[draft.op]} ${draft.value}`.trim();
  return `${draft.event || '…'} ${countOps[draft.countOp]} ${draft.count} times in ${draft.withinDays} days${whereWords(draft.where)}`;
}

/** A step in one line, as the list of journeys and each step of the flow say it; a template by its name. */
export function stepSummary(step: StepDraft, templateName: (id: string) => string): string {
  switch (step.type) {
    case 'wait':
      return step.mode === 'delay'
        ? `wait ${seconds(secondsOf(step.delay))}`
        : `wait until ${step.time} in the traveller's time zone`;
    case 'push':
      if (step.push.mode === 'template') return templateName(step.push.templateId);
      return step.push.options.silent
        ? 'silent push'
        : `push ${quoted(step.push.content.title || step.push.content.body)}`;
    case 'waitForEvent':
      return `wait up to ${seconds(secondsOf(step.timeout))} for ${quoted(step.event)}${whereWords(step.where)}`;
    case 'branch':
      return step.conditions.length === 0
        ? 'branch with no condition yet'
        : `if ${step.conditions.map(conditionWords).join(step.match === 'all' ? ' and ' : ' or ')}`;
    case 'split':
      return `split ${step.paths.map((path) => `${path.name} ${path.percent}%`).join(' / ')}`;
    case 'setTags':
      return `set tags ${step.tags.map((row) => (row.remove ? `remove ${row.key}` : `${row.key} = ${row.value}`)).join(', ')}`;
    default:
      return 'publish a journey.step event to your webhooks';
  }
}

/** A template by its name once the templates are read; a deleted one says so, for a step of it sends nothing. */
export const templateNamer =
  (templates: ReadonlyArray<{ id: string; name: string }> | undefined) =>
  (id: string): string => {
    if (!templates) return `template ${id}`;
    const template = templates.find((candidate) => candidate.id === id);
    return template ? `template “${template.name}”` : `template ${id} (deleted: sends nothing)`;
  };
