import { Select } from '../../fields.tsx';
import { exitTarget } from './flow-layout.ts';
import type { StepDraft } from './step-draft.ts';
import { stepTypeWords } from './step-words.ts';

/** Where a traveller goes next: a step of the journey by its number and name, the exit, or (for `next`) the following step. */
export function TargetSelect({
  label,
  value,
  steps,
  own,
  onChange,
  error,
  withFollowing = false,
}: {
  label: string;
  value: string;
  steps: StepDraft[];
  /** The step the select belongs to, not offered as its own target. */
  own: number;
  onChange(target: string): void;
  error?: string;
  withFollowing?: boolean;
}) {
  const options: Array<readonly [string, string]> = [
    ...(withFollowing ? [['', 'The next step in the list'] as const] : []),
    ...steps.flatMap((step, index) =>
      index === own ? [] : [[step.id, `Step ${index + 1}: ${step.id} (${stepTypeWords[step.type]})`] as const],
    ),
    [exitTarget, 'Exit the journey'],
  ];
  if (!options.some(([target]) => target === value)) options.unshift([value, `${value} (no such step)`]);
  return <Select label={label} value={value} options={options} onChange={onChange} error={error} />;
}
