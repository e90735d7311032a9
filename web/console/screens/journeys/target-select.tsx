import { useId } from 'preact/hooks';
import { describedBy, FieldNotes } from '../../fields.tsx';
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
  const id = useId();
  const options: Array<[string, string]> = [
    ...(withFollowing ? [['', 'The next step in the list'] as [string, string]] : []),
    ...steps.flatMap(
      (step, index): Array<[string, string]> =>
        index === own ? [] : [[step.id, `Step ${index + 1}: ${step.id} (${stepTypeWords[step.type]})`]],
    ),
    [exitTarget, 'Exit the journey'],
  ];
  if (!options.some(([target]) => target === value)) options.unshift([value, `${value} (no such step)`]);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy(id, undefined, error)}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        {options.map(([target, text]) => (
          <option key={target} value={target}>
            {text}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}
