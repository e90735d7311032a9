import { useState } from 'preact/hooks';
import type { TemplateView } from '../../../src/schemas/template.ts';
import type { RenderedContent } from '../../../src/schemas/notification.ts';
import { api, listAll } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView } from '../ui.tsx';
import { Field } from '../fields.tsx';
import { SaveControls } from '../save-controls.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';
import { placeErrors } from '../field-errors.ts';
import { blank, bodyOf, type Draft, draftOf, errorRules, liquidFields } from './template-draft.ts';
import { Advanced, useToast } from '../layout.tsx';
import { DevicePicker } from '../device-picker.tsx';

export function TemplatesScreen() {
  const { base } = useProject();
  const list = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(blank);
  const [previewDevice, setPreviewDevice] = useState('');

  // Empty fields are left out (JSON drops undefined): a send, which the preview mirrors, has no null content.
  const previewInput = useDebounced(
    JSON.stringify({
      title: draft.title || undefined,
      body: draft.body,
      url: draft.url || undefined,
      imageUrl: draft.imageUrl || undefined,
      deviceId: previewDevice.trim() || undefined,
    }),
  );
  const preview = useLoad(
    draft.body === ''
      ? null
      : () => api<RenderedContent>('POST', `${base}/notifications/preview`, { body: JSON.parse(previewInput) }),
    [previewInput],
  );
  const previewErrors = placeErrors(preview.error, errorRules).fields;
  const liquidFailed = liquidFields.some(([field]) => field in previewErrors);
  const { toast, say } = useToast();

  const save = useAction(async () => {
    const saved =
      editing === null
        ? await api<TemplateView>('POST', `${base}/templates`, { body: bodyOf(draft) })
        : await api<TemplateView>('PUT', `${base}/templates/${editing}`, { body: bodyOf(draft) });
    // A new template goes to the list and leaves a blank form for the next one; an edited one stays open.
    if (editing === null) setDraft(blank);
    say(editing === null ? `Created "${saved.name}": open it from the list.` : `Saved "${saved.name}".`);
    list.reload();
    return saved;
  });
  const saveErrors = placeErrors(save.error, errorRules);
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/templates/${id}`);
    say(`Deleted "${draft.name}".`);
    setEditing(null);
    setDraft(blank);
    list.reload();
  });
  // As last saved: the save's own answer until the list read again after it catches up.
  const editedTemplate =
    save.result?.id === editing ? save.result : list.data?.find((template) => template.id === editing);
  const mayLeave = useUnsavedEdits(() => !unchanged(draft, editedTemplate ? draftOf(editedTemplate) : blank));

  return (
    <div class="columns">
      <section aria-labelledby="templates-list">
        <h2 id="templates-list">Templates</h2>
        <LoadedView loaded={list} empty="No template yet: write the first one here.">
          {(templates) => (
            <ul class="picks">
              {templates.map((template) => (
                <li key={template.id}>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={editing === template.id}
                    onClick={() => {
                      if (!mayLeave()) return;
                      setEditing(template.id);
                      setDraft(draftOf(template));
                      save.reset();
                      remove.reset();
                    }}
                  >
                    {template.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </LoadedView>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            if (!mayLeave()) return;
            setEditing(null);
            setDraft(blank);
            save.reset();
            remove.reset();
          }}
        >
          New template
        </button>
      </section>
      <form
        aria-labelledby="template-editor"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <h2 id="template-editor">{editing === null ? 'New template' : 'Edit template'}</h2>
        <Field
          label="Name"
          name="template-name"
          required
          value={draft.name}
          error={saveErrors.fields.name}
          onInput={(name) => setDraft({ ...draft, name })}
        />
        {liquidFields.map(([field, label]) => (
          <Field
            key={field}
            label={label}
            name={`template-${field}`}
            multiline={field === 'body'}
            required={field === 'body'}
            value={draft[field]}
            onInput={(text) => setDraft({ ...draft, [field]: text })}
            error={saveErrors.fields[field] ?? previewErrors[field]}
          />
        ))}
        <SaveControls
          saveLabel="Save template"
          save={save}
          unplaced={saveErrors.unplaced}
          remove={remove}
          editing={editing}
          onRemove={(id) => void remove.run(id)}
          removeWarning="Journeys that use it will send nothing; sends already accepted keep their content."
        />
      </form>
      <section aria-labelledby="template-preview">
        <h2 id="template-preview">Preview</h2>
        <DevicePicker name="template-preview" picked={previewDevice.trim()} onPick={setPreviewDevice} />
        <Advanced open={previewErrors.deviceId !== undefined || undefined}>
          <Field
            label="Preview for device id"
            name="template-preview-device"
            value={previewDevice}
            onInput={setPreviewDevice}
            hint="Optional: renders with this device's tags; picked above or typed."
            error={previewErrors.deviceId}
          />
        </Advanced>
        {preview.error && Object.keys(previewErrors).length === 0 && <ErrorMessage error={preview.error} />}
        {/* Liquid that does not parse, or a body that renders blank for these variables: the field says which. */}
        {preview.error && liquidFailed && <p role="alert">No preview; see the fields marked.</p>}
        {preview.data && !preview.error && (
          <div class="push-preview" data-testid="template-preview">
            <strong>{preview.data.title ?? ''}</strong>
            <p>{preview.data.body}</p>
            {preview.data.url && <small>{preview.data.url}</small>}
          </div>
        )}
      </section>
      {toast}
    </div>
  );
}
