import { useState } from 'preact/hooks';
import type { SegmentPreview, SegmentView } from '../../../src/schemas/segment.ts';
import { api, listAll } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { LoadedView } from '../ui.tsx';
import { Field, FormError, Select } from '../fields.tsx';
import { placeErrors } from '../field-errors.ts';
import { errorRules } from './segments/segment-errors.ts';
import { useToast } from '../layout.tsx';
import { SaveControls } from '../save-controls.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';
import { ConditionEditor, segmentEventTypes } from './segments/condition-editor.tsx';
import { EventTypeSuggestions, TagSuggestions } from '../pickers.tsx';
import { type DraftCondition, editorState, newTagCondition, toCondition } from './segments/draft.ts';

export function SegmentsScreen() {
  const { base } = useProject();
  const list = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [editing, setEditing] = useState<string | null>(null);
  const { toast, say } = useToast();
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
    // A new segment goes to the list and leaves a blank builder for the next one; an edited one stays open.
    if (editing === null) show(null);
    say(editing === null ? `Created "${saved.name}": open it from the list.` : `Saved "${saved.name}".`);
    list.reload();
    return saved;
  });
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/segments/${id}`);
    say(`Deleted "${name}".`);
    show(null);
    list.reload();
  });
  const rules = errorRules(conditions.length);
  const saveErrors = placeErrors(save.error, rules);
  const previewErrors = placeErrors(preview.error, rules);
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
        <Field
          label="Name"
          name="segment-name"
          required
          value={name}
          onInput={setName}
          error={saveErrors.fields.name}
        />
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
        <EventTypeSuggestions id={segmentEventTypes} />
        <TagSuggestions />
        {conditions.map((condition, index) => (
          <ConditionEditor
            key={index}
            index={index}
            condition={condition}
            error={saveErrors.fields[`condition-${index}`] ?? previewErrors.fields[`condition-${index}`]}
            onChange={(next) => setConditions(conditions.map((old, at) => (at === index ? next : old)))}
            onRemove={() => setConditions(conditions.filter((_, at) => at !== index))}
          />
        ))}
        <SaveControls
          saveLabel="Save segment"
          save={save}
          unplaced={saveErrors.unplaced}
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
        <FormError error={preview.error} unplaced={previewErrors.unplaced} what="conditions" />
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
      {toast}
    </div>
  );
}
