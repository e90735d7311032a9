import { useState } from 'preact/hooks';
import type { CountOp, SegmentPreview, SegmentView, TagCondition, EventCondition } from '../../../src/schemas/segment.ts';
import type { ConditionOp } from '../../../src/schemas/event-conditions.ts';
import { api } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, Field, LoadedView, Select } from '../ui.tsx';

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
const countOps: Record<CountOp, string> = { eq: 'exactly', ne: 'not', gt: 'more than', gte: 'at least', lt: 'fewer than', lte: 'at most' };

type DraftCondition =
  | { kind: 'tag'; tag: string; op: ConditionOp; value: string; valueType: 'text' | 'number' }
  | { kind: 'event'; event: string; withinDays: string; countOp: CountOp; count: string };

const newTagCondition = (): DraftCondition => ({ kind: 'tag', tag: '', op: 'eq', value: '', valueType: 'text' });
const newEventCondition = (): DraftCondition => ({ kind: 'event', event: '', withinDays: '30', countOp: 'gte', count: '1' });

function typedValue(text: string, valueType: 'text' | 'number'): string | number {
  return valueType === 'number' && text.trim() !== '' ? Number(text) : text;
}

/** What the API takes; a number left unparsable is sent as typed, so the API's 400 names it. */
function toCondition(draft: DraftCondition): TagCondition | EventCondition {
  if (draft.kind === 'event') {
    return { event: draft.event, withinDays: Number(draft.withinDays), count: { op: draft.countOp, value: Number(draft.count) } };
  }
  if (draft.op === 'exists' || draft.op === 'notExists') return { tag: draft.tag, op: draft.op };
  const value = draft.op === 'in' || draft.op === 'nin' ? draft.value.split(',').map((part) => typedValue(part.trim(), draft.valueType)) : typedValue(draft.value, draft.valueType);
  return { tag: draft.tag, op: draft.op, value };
}

function toDraft(condition: TagCondition | EventCondition): DraftCondition {
  if ('event' in condition) return { kind: 'event', event: condition.event, withinDays: String(condition.withinDays), countOp: condition.count.op, count: String(condition.count.value) };
  const values = Array.isArray(condition.value) ? condition.value : [condition.value];
  return { kind: 'tag', tag: condition.tag, op: condition.op, value: condition.value === undefined ? '' : values.join(', '), valueType: typeof values[0] === 'number' ? 'number' : 'text' };
}

function ConditionEditor({ condition, index, onChange, onRemove }: { condition: DraftCondition; index: number; onChange(next: DraftCondition): void; onRemove(): void }) {
  const name = (field: string) => `condition-${index}-${field}`;
  return (
    <fieldset class="condition">
      <legend>Condition {index + 1}</legend>
      <Select label="Kind" name={name('kind')} value={condition.kind} options={[['tag', 'Tag'], ['event', 'Event']] as const} onChange={(kind) => onChange(kind === 'tag' ? newTagCondition() : newEventCondition())} />
      {condition.kind === 'tag' ? (
        <>
          <Field label="Tag" name={name('tag')} value={condition.tag} onInput={(tag) => onChange({ ...condition, tag })} required />
          <Select label="Operator" name={name('op')} value={condition.op} options={Object.entries(tagOps) as Array<[ConditionOp, string]>} onChange={(op) => onChange({ ...condition, op })} />
          {condition.op !== 'exists' && condition.op !== 'notExists' && (
            <>
              <Field label="Value" name={name('value')} value={condition.value} onInput={(value) => onChange({ ...condition, value })} />
              <Select label="Value type" name={name('value-type')} value={condition.valueType} options={[['text', 'Text'], ['number', 'Number or time (ms)']] as const} onChange={(valueType) => onChange({ ...condition, valueType })} />
            </>
          )}
        </>
      ) : (
        <>
          <Field label="Event type" name={name('event')} value={condition.event} onInput={(event) => onChange({ ...condition, event })} required />
          <Select label="Happened" name={name('count-op')} value={condition.countOp} options={Object.entries(countOps) as Array<[CountOp, string]>} onChange={(countOp) => onChange({ ...condition, countOp })} />
          <Field label="Times" name={name('count')} type="number" value={condition.count} onInput={(count) => onChange({ ...condition, count })} />
          <Field label="Within days" name={name('within')} type="number" value={condition.withinDays} onInput={(withinDays) => onChange({ ...condition, withinDays })} />
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
  const list = useLoad(() => api<SegmentView[]>('GET', `${base}/segments`), [base]);
  const [editing, setEditing] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [match, setMatch] = useState<SegmentView['match']>('all');
  const [conditions, setConditions] = useState<DraftCondition[]>([newTagCondition()]);

  // A condition still without its tag or event is left out of the live count rather than answered with a 400.
  const complete = conditions.filter((condition) => (condition.kind === 'tag' ? condition.tag : condition.event) !== '');
  const definition = useDebounced(JSON.stringify({ match, conditions: complete.map(toCondition) }));
  const preview = useLoad(() => api<SegmentPreview>('POST', `${base}/segments/preview`, { body: JSON.parse(definition) }), [definition]);
  const save = useAction(async () => {
    const body = { name, match, conditions: conditions.map(toCondition) };
    const saved = editing === null ? await api<SegmentView>('POST', `${base}/segments`, { body }) : await api<SegmentView>('PUT', `${base}/segments/${editing}`, { body });
    setEditing(saved.id);
    list.reload();
    return saved;
  });
  const open = (segment: SegmentView | null) => {
    setEditing(segment?.id ?? null);
    setName(segment?.name ?? '');
    setMatch(segment?.match ?? 'all');
    setConditions(segment ? segment.conditions.map(toDraft) : [newTagCondition()]);
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
                  <button type="button" class="link" aria-pressed={editing === segment.id} onClick={() => open(segment)}>
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
        <Select label="Devices must match" name="segment-match" value={match} options={[['all', 'all conditions'], ['any', 'any condition']] as const} onChange={setMatch} />
        {conditions.map((condition, index) => (
          <ConditionEditor
            key={index}
            index={index}
            condition={condition}
            onChange={(next) => setConditions(conditions.map((old, at) => (at === index ? next : old)))}
            onRemove={() => setConditions(conditions.filter((_, at) => at !== index))}
          />
        ))}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setConditions([...conditions, newTagCondition()])}>
            Add condition
          </button>
          <button type="submit" disabled={save.running}>
            Save segment
          </button>
        </div>
        <ErrorMessage error={save.error} />
        {save.result && !save.running && (
          <p role="status" class="notice">
            Saved <code>{save.result.id}</code>.
          </p>
        )}
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
