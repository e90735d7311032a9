import type { CountOp } from '../../../../src/schemas/segment.ts';
import { Field, Select } from '../../fields.tsx';
import { ComparisonFields } from './comparison-fields.tsx';
import { DataConditions } from '../data-conditions.tsx';

/** The id of the segment screen's one list of the project's event types, suggested in each event condition. */
export const segmentEventTypes = 'segment-event-types';
import { type DraftCondition, newEventCondition, newTagCondition } from './draft.ts';

/** Every count operator, by its label: the record's type makes the compiler notice an operator added to the API. */
export const countOps: Record<CountOp, string> = {
  eq: 'exactly',
  ne: 'not',
  gt: 'more than',
  gte: 'at least',
  lt: 'fewer than',
  lte: 'at most',
};

export function ConditionEditor({
  condition,
  index,
  onChange,
  onRemove,
  error,
}: {
  condition: DraftCondition;
  index: number;
  /** What the API refused in it, in words. */
  error?: string;
  onChange(next: DraftCondition): void;
  onRemove(): void;
}) {
  const name = (field: string) => `condition-${index}-${field}`;
  return (
    <fieldset class="condition" aria-describedby={error && name('error')} aria-invalid={error ? true : undefined}>
      <legend>Condition {index + 1}</legend>
      {error && (
        <small id={name('error')} class="field-error">
          {error}
        </small>
      )}
      <Select
        label="Kind"
        name={name('kind')}
        value={condition.kind}
        options={
          [
            ['tag', 'Tag'],
            ['event', 'Event'],
          ] as const
        }
        onChange={(kind) => onChange(kind === 'tag' ? newTagCondition() : newEventCondition())}
      />
      {condition.kind === 'tag' ? (
        <ComparisonFields
          keyLabel="Tag"
          suggestTags
          timesAs="ms"
          comparison={condition}
          name={name}
          onChange={(comparison) => onChange({ kind: 'tag', ...comparison })}
        />
      ) : (
        <>
          <Field
            label="Event type"
            name={name('event')}
            value={condition.event}
            onInput={(event) => onChange({ ...condition, event })}
            list={segmentEventTypes}
            required
          />
          <Select
            label="Happened"
            name={name('count-op')}
            value={condition.countOp}
            options={Object.entries(countOps) as Array<[CountOp, string]>}
            onChange={(countOp) => onChange({ ...condition, countOp })}
          />
          <Field
            label="Times"
            name={name('count')}
            type="number"
            value={condition.count}
            onInput={(count) => onChange({ ...condition, count })}
            required
          />
          <Field
            label="Within days"
            name={name('within')}
            type="number"
            value={condition.withinDays}
            onInput={(withinDays) => onChange({ ...condition, withinDays })}
            required
          />
          <DataConditions
            where={condition.where}
            onChange={(where) => onChange({ ...condition, where })}
            name={name}
            legend={(at) => `Data condition ${at + 1} of condition ${index + 1}`}
            addLabel="Add a condition on the event's data"
          />
        </>
      )}
      <button type="button" class="secondary" onClick={onRemove}>
        Remove condition {index + 1}
      </button>
    </fieldset>
  );
}
