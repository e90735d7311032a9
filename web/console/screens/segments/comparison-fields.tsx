import type { ConditionOp } from '../../../../src/schemas/event-conditions.ts';
import { Field, Select } from '../../fields.tsx';
import { tagKeysList, tagValuesList } from '../../pickers.tsx';
import type { DraftComparison } from './draft.ts';

/** Every operator, by its label: the record's type makes the compiler notice an operator added to the API. */
const tagOps: Record<ConditionOp, string> = {
  eq: 'equals',
  ne: 'does not equal',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  in: 'is one of (comma-separated)',
  nin: 'is none of (comma-separated)',
  exists: 'is set',
  notExists: 'is not set',
};

/**
 * Tags hold a time as Unix milliseconds (CONTRACTS §4); event data keeps an ISO time as a time, which a condition
 * reaches with an ISO time and never with milliseconds (§5). The number type says which a comparison takes.
 */
const valueTypesFor = (timesAs: 'ms' | 'iso') =>
  [
    ['auto', 'Number if it looks like one, else text'],
    ['text', 'Text'],
    ['number', timesAs === 'ms' ? 'Number or time (ms)' : 'Number'],
    ['boolean', 'true or false'],
  ] as const;
const isoTimeHint =
  'A time in event data compares as a time when typed with its zone: 2024-04-19T14:23:56+09:00 (not in milliseconds).';

export function ComparisonFields({
  keyLabel,
  timesAs,
  comparison,
  name,
  onChange,
  suggestTags = false,
}: {
  keyLabel: string;
  /** Suggests the project's tag keys and the values seen for the key chosen (TagSuggestions on the screen). */
  suggestTags?: boolean;
  timesAs: 'ms' | 'iso';
  comparison: DraftComparison;
  name: (field: string) => string;
  onChange(next: DraftComparison): void;
}) {
  const listHint = 'Separate values with commas; quote one that holds a comma: "Washington, D.C."';
  const isList = comparison.op === 'in' || comparison.op === 'nin';
  return (
    <>
      <Field
        label={keyLabel}
        name={name('key')}
        value={comparison.key}
        onInput={(key) => onChange({ ...comparison, key })}
        list={suggestTags ? tagKeysList : undefined}
        required
      />
      <Select
        label="Operator"
        name={name('op')}
        value={comparison.op}
        options={Object.entries(tagOps) as Array<[ConditionOp, string]>}
        onChange={(op) => onChange({ ...comparison, op })}
      />
      {comparison.op !== 'exists' && comparison.op !== 'notExists' && (
        <>
          <Field
            label="Value"
            name={name('value')}
            value={comparison.value}
            hint={[isList && listHint, timesAs === 'iso' && isoTimeHint].filter(Boolean).join(' ') || undefined}
            onInput={(value) => onChange({ ...comparison, value })}
            list={suggestTags ? tagValuesList(comparison.key) : undefined}
          />
          <Select
            label="Value type"
            name={name('value-type')}
            value={comparison.valueType}
            options={valueTypesFor(timesAs)}
            onChange={(valueType) => onChange({ ...comparison, valueType })}
          />
        </>
      )}
    </>
  );
}
