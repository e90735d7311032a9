import { Field, Select } from '../../fields.tsx';
import { type Duration, units } from './duration.ts';

/** An amount and its unit side by side: "3 days" rather than 259200 seconds. */
export function DurationField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
}: {
  label: string;
  name: string;
  value: Duration;
  onChange(value: Duration): void;
  error?: string;
  hint?: string;
}) {
  return (
    <div class="duration">
      <Field
        label={label}
        name={name}
        type="number"
        value={value.amount}
        onInput={(amount) => onChange({ ...value, amount })}
        error={error}
        hint={hint}
        required
      />
      <Select
        label={`${label}: unit`}
        name={`${name}-unit`}
        value={value.unit}
        options={units.map(([unit, words]) => [unit, words] as const)}
        onChange={(unit) => onChange({ ...value, unit })}
      />
    </div>
  );
}
