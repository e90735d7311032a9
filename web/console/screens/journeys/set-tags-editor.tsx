import { Checkbox, Field } from '../../fields.tsx';
import { tagKeysList, tagValuesList } from '../../pickers.tsx';
import { type EditorProps, errorOn } from './editor-props.ts';
import type { TagRow } from './step-draft.ts';

export function SetTagsEditor({ step, onChange, errors }: EditorProps<'setTags'>) {
  const setRow = (at: number, changes: Partial<TagRow>) =>
    onChange({ ...step, tags: step.tags.map((row, other) => (other === at ? { ...row, ...changes } : row)) });
  return (
    <>
      <p class="muted hint">On the device, or on every device of a user.</p>
      {errorOn(errors, 'tags') && <p class="field-error">{errorOn(errors, 'tags')}</p>}
      {step.tags.map((row, at) => (
        <fieldset key={at}>
          <legend>Tag {at + 1}</legend>
          <Field
            label={`Tag ${at + 1} name`}
            name={`step-tag-${at}-key`}
            required
            list={tagKeysList}
            value={row.key}
            onInput={(key) => setRow(at, { key })}
          />
          {!row.remove && (
            <Field
              label={`Tag ${at + 1} value`}
              name={`step-tag-${at}-value`}
              list={tagValuesList(row.key)}
              value={row.value}
              onInput={(value) => setRow(at, { value })}
              hint="A number if it looks like one; quote it to keep it text: “30”."
            />
          )}
          <Checkbox
            label={`Remove tag ${at + 1} instead`}
            checked={row.remove}
            onChange={(remove) => setRow(at, { remove })}
          />
          <button
            type="button"
            class="secondary"
            onClick={() => onChange({ ...step, tags: step.tags.filter((_, other) => other !== at) })}
          >
            Take out tag {at + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => onChange({ ...step, tags: [...step.tags, { key: '', value: '', remove: false }] })}
      >
        Add a tag
      </button>
    </>
  );
}
