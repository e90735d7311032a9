import { useState } from 'preact/hooks';
import type {
  CountOp,
  SegmentPreview,
  SegmentView,
  TagCondition,
  EventCondition,
} from '../../../src/schemas/segment.ts';
import type { ConditionOp } from '../../../src/schemas/event-conditions.ts';
import { api, listAll } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, Field, LoadedView, SaveControls, Select, unchanged, useUnsavedEdits } from '../ui.tsx';
import { formatConditionValue, parseConditionValue, type ValueType } from './condition-values.ts';

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
const countOps: Record<CountOp, string> = {
  eq: 'exactly',
  ne: 'not',
  gt: 'more than',
  gte: 'at least',
  lt: 'fewer than',
  lte: 'at most',
};

/** A tag's or an event data field's comparison, as typed: the value stays text until it is sent. */
interface DraftComparison {
  key: string;
  op: ConditionOp;
  value: string;
  valueType: ValueType;
}

type DraftCondition =
  | ({ kind: 'tag' } & DraftComparison)
  | { kind: 'event'; event: string; withinDays: string; countOp: CountOp; count: string; where: DraftComparison[] };

const newComparison = (): DraftComparison => ({ key: '', op: 'eq', value: '', valueType: 'auto' });
const newTagCondition = (): DraftCondition => ({ kind: 'tag', ...newComparison() });
const newEventCondition = (): DraftCondition => ({
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

function toCondition(draft: DraftCondition): TagCondition | EventCondition {
  if (draft.kind === 'tag') return { tag: draft.key, ...comparisonOf(draft) };
  const where = draft.where
    .filter((comparison) => comparison.key !== '')
    .map((comparison) => ({ field: comparison.key, ...comparisonOf(comparison) }));
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

function toDraft(condition: TagCondition | EventCondition): DraftCondition {
  if ('tag' in condition) return { kind: 'tag', ...toComparison(condition.tag, condition.op, condition.value) };
  const where = (condition.where ?? []).map((comparison) =>
    toComparison(comparison.field, comparison.op, comparison.value),
  );
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
function editorState(segment: SegmentView | null) {
  return {
    name: segment?.name ?? '',
    match: segment?.match ?? 'all',
    conditions: segment ? segment.conditions.map(toDraft) : [newTagCondition()],
  };
}

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

function ComparisonFields({
  keyLabel,
  timesAs,
  comparison,
  name,
  onChange,
}: {
  keyLabel: string;
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

function ConditionEditor({
  condition,
  index,
  onChange,
  onRemove,
}: {
  condition: DraftCondition;
  index: number;
  onChange(next: DraftCondition): void;
  onRemove(): void;
}) {
  const name = (field: string) => `condition-${index}-${field}`;
  return (
    <fieldset class="condition">
      <legend>Condition {index + 1}</legend>
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
          {condition.where.map((comparison, at) => (
            <fieldset key={at} class="condition">
              <legend>
                Data condition {at + 1} of condition {index + 1}
              </legend>
              <ComparisonFields
                keyLabel="Data field"
                timesAs="iso"
                comparison={comparison}
                name={(field) => name(`where-${at}-${field}`)}
                onChange={(next) =>
                  onChange({ ...condition, where: condition.where.map((old, other) => (other === at ? next : old)) })
                }
              />
              <button
                type="button"
                class="secondary"
                onClick={() => onChange({ ...condition, where: condition.where.filter((_, other) => other !== at) })}
              >
                Remove data condition {at + 1}
              </button>
            </fieldset>
          ))}
          <button
            type="button"
            class="secondary"
            onClick={() => onChange({ ...condition, where: [...condition.where, newComparison()] })}
          >
            Add a condition on the event's data
          </button>
        </>
      )}
      <button type="button" class="secondary" onClick={onRemove}>
        Remove condition {index + 1}
      </button>
    </fieldset>
  );
}

export function SegmentsScreen() {
  const { base } = useProject();
  const list = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [editing, setEditing] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [match, setMatch] = useState<SegmentView['match']>('all');
  const [conditions, setConditions] = useState<DraftCondition[]>([newTagCondition()]);

  // A condition still without its tag or event is left out of the live count rather than answered with a 400.
  const complete = conditions.filter(
    (condition) => (condition.kind === 'tag' ? condition.key : condition.event) !== '',
  );
  const definition = useDebounced(JSON.stringify({ match, conditions: complete.map(toCondition) }));
  const preview = useLoad(
    () => api<SegmentPreview>('POST', `${base}/segments/preview`, { body: JSON.parse(definition) }),
    [definition],
  );
  const save = useAction(async () => {
    const body = { name, match, conditions: conditions.map(toCondition) };
    const saved =
      editing === null
        ? await api<SegmentView>('POST', `${base}/segments`, { body })
        : await api<SegmentView>('PUT', `${base}/segments/${editing}`, { body });
    setEditing(saved.id);
    list.reload();
    return saved;
  });
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/segments/${id}`);
    show(null);
    list.reload();
    return id;
  });
  // As last saved: the save's own answer until the list read again after it catches up.
  const editedSegment =
    (save.result?.id === editing ? save.result : list.data?.find((segment) => segment.id === editing)) ?? null;
  const mayLeave = useUnsavedEdits(() => {
    // Compared as the API would take them: "10" typed with an automatic type is the 10 that was saved.
    const saved = editorState(editedSegment);
    const current = { name, match, conditions: conditions.map(toCondition) };
    return !unchanged(current, { ...saved, conditions: saved.conditions.map(toCondition) });
  });
  const open = (segment: SegmentView | null) => {
    if (!mayLeave()) return;
    remove.reset();
    show(segment);
  };
  const show = (segment: SegmentView | null) => {
    const state = editorState(segment);
    setEditing(segment?.id ?? null);
    setName(state.name);
    setMatch(state.match);
    setConditions(state.conditions);
    save.reset();
  };

  return (
    <div class="columns">
      <section aria-labelledby="segments-list">
        <h2 id="segments-list">Segments</h2>
        <LoadedView loaded={list} empty="No segment yet: build the first one here.">
          {(segments) => (
            <ul class="picks">
              {segments.map((segment) => (
                <li key={segment.id}>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={editing === segment.id}
                    onClick={() => open(segment)}
                  >
                    {segment.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </LoadedView>
        <button type="button" class="secondary" onClick={() => open(null)}>
          New segment
        </button>
      </section>
      <form
        aria-labelledby="segment-builder"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <h2 id="segment-builder">{editing === null ? 'New segment' : 'Edit segment'}</h2>
        <Field label="Name" name="segment-name" required value={name} onInput={setName} />
        <Select
          label="Devices must match"
          name="segment-match"
          value={match}
          options={
            [
              ['all', 'all conditions'],
              ['any', 'any condition'],
            ] as const
          }
          onChange={setMatch}
        />
        {conditions.map((condition, index) => (
          <ConditionEditor
            key={index}
            index={index}
            condition={condition}
            onChange={(next) => setConditions(conditions.map((old, at) => (at === index ? next : old)))}
            onRemove={() => setConditions(conditions.filter((_, at) => at !== index))}
          />
        ))}
        <SaveControls
          saveLabel="Save segment"
          save={save}
          remove={remove}
          editing={editing}
          onRemove={(id) => void remove.run(id)}
          removeWarning="Sends to it that have not started yet, such as scheduled ones, will fail and send nothing."
        >
          <button type="button" class="secondary" onClick={() => setConditions([...conditions, newTagCondition()])}>
            Add condition
          </button>
        </SaveControls>
      </form>
      <section aria-labelledby="segment-count">
        <h2 id="segment-count">Live count</h2>
        <ErrorMessage error={preview.error} />
        {preview.data && !preview.error && (
          <>
            <p class="count" aria-live="polite" data-testid="segment-count">
              {preview.data.count} subscribed device{preview.data.count === 1 ? '' : 's'}
            </p>
            {preview.data.sample.length > 0 && (
              <>
                <h3>Sample</h3>
                <ul data-testid="segment-sample">
                  {preview.data.sample.map((id) => (
                    <li key={id}>
                      <code>{id}</code>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
        {preview.loading && <p class="muted">Counting…</p>}
      </section>
    </div>
  );
}
