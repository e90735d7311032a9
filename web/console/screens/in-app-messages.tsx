import { useState } from 'preact/hooks';
import type { InAppMessageView } from '../../../src/schemas/in-app-message.ts';
import type { SegmentView } from '../../../src/schemas/segment.ts';
import { api, listAll } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { LoadedView } from '../ui.tsx';
import { SaveControls } from '../save-controls.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';
import { blankDraft, bodyOf, draftOf, inAppErrorRules, type InAppDraft } from './in-app-messages-draft.ts';
import { DataTable, Section, useToast } from '../layout.tsx';
import { placeErrors } from '../field-errors.ts';
import { InAppEditor } from './in-app-messages-editor.tsx';
import { InAppPreview } from './in-app-messages-preview.tsx';

/** A message's frequency in the editor's words. */
const frequencyText = (frequency: InAppMessageView['frequency']) => {
  if (frequency === 'once') return 'Once per device';
  if (frequency === 'always') return 'Each time the trigger fires';
  return `At most every ${frequency.everyDays} ${frequency.everyDays === 1 ? 'day' : 'days'}`;
};

/** Each message with its stats, which only the read of one carries. */
async function withStats(base: string): Promise<InAppMessageView[]> {
  const messages = await listAll<InAppMessageView>(`${base}/in-app-messages`);
  return Promise.all(messages.map((message) => api<InAppMessageView>('GET', `${base}/in-app-messages/${message.id}`)));
}

export function InAppMessagesScreen() {
  const { base } = useProject();
  const list = useLoad(() => withStats(base), [base]);
  const segments = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<InAppDraft>(blankDraft);
  const { toast, say } = useToast();

  const save = useAction(async () => {
    const path = editing === null ? `${base}/in-app-messages` : `${base}/in-app-messages/${editing}`;
    const saved = await api<InAppMessageView>(editing === null ? 'POST' : 'PUT', path, { body: bodyOf(draft) });
    // A new message goes to the list and leaves a blank editor for the next one; an edited one stays open.
    if (editing === null) setDraft(blankDraft);
    say(editing === null ? `Created "${saved.name}": open it from the list.` : `Saved "${saved.name}".`);
    list.reload();
    return saved;
  });
  const placed = placeErrors(save.error, inAppErrorRules(draft.buttons.length));
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/in-app-messages/${id}`);
    say(`Deleted "${draft.name}".`);
    setEditing(null);
    setDraft(blankDraft);
    list.reload();
  });
  const edited = save.result?.id === editing ? save.result : list.data?.find((message) => message.id === editing);
  const mayLeave = useUnsavedEdits(() => !unchanged(draft, edited ? draftOf(edited) : blankDraft));
  const open = (message: InAppMessageView | null) => {
    if (!mayLeave()) return;
    setEditing(message?.id ?? null);
    setDraft(message ? draftOf(message) : blankDraft);
    save.reset();
    remove.reset();
  };
  const preview = bodyOf(draft);

  return (
    <>
      <Section title="In-app messages">
        <LoadedView loaded={list} empty="No in-app message yet: write the first one here.">
          {(messages) => (
            <DataTable
              caption="In-app messages"
              rows={messages}
              rowKey={(message) => message.id}
              columns={[
                {
                  label: 'Name',
                  cell: (message) => (
                    <button
                      type="button"
                      class="link"
                      aria-pressed={editing === message.id}
                      onClick={() => open(message)}
                    >
                      {message.name}
                    </button>
                  ),
                },
                { label: 'Status', cell: (message) => message.status },
                { label: 'Frequency', cell: (message) => frequencyText(message.frequency) },
                { label: 'Displayed', kind: 'number', cell: (message) => message.stats?.displayed ?? 0 },
                { label: 'Clicked', kind: 'number', cell: (message) => message.stats?.clicked ?? 0 },
                { label: 'Closed', kind: 'number', cell: (message) => message.stats?.closed ?? 0 },
              ]}
            />
          )}
        </LoadedView>
        <button type="button" class="secondary" onClick={() => open(null)}>
          New in-app message
        </button>
      </Section>
      <div class="columns">
        <form
          aria-labelledby="in-app-editor"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <h2 id="in-app-editor">{editing === null ? 'New in-app message' : 'Edit in-app message'}</h2>
          <InAppEditor draft={draft} onChange={setDraft} segments={segments} errors={placed.fields} />
          <SaveControls
            saveLabel="Save in-app message"
            save={save}
            unplaced={placed.unplaced}
            remove={remove}
            editing={editing}
            onRemove={(id) => void remove.run(id)}
            removeWarning="Devices stop being offered it at their next fetch."
          />
        </form>
        <section aria-labelledby="in-app-preview">
          <h2 id="in-app-preview">Preview</h2>
          <p class="muted">As the web SDK draws it; Liquid is rendered for each device when it fetches.</p>
          <InAppPreview
            message={{
              id: editing ?? 'preview',
              layout: preview.layout,
              title: preview.title ?? null,
              body: preview.body || 'Your message',
              imageUrl: preview.imageUrl ?? null,
              buttons: preview.buttons ?? [],
              trigger: preview.trigger as { event: string },
              frequency: preview.frequency,
              priority: preview.priority ?? 0,
            }}
          />
        </section>
      </div>
      {toast}
    </>
  );
}
