import { Field, Select } from '../fields.tsx';
import { Advanced } from '../layout.tsx';
import type { ButtonDraft } from './in-app-messages-draft.ts';

/** One button of an in-app message: its label and what a tap does. */
export function ButtonFields({
  index,
  button,
  onChange,
  onRemove,
  errors,
}: {
  index: number;
  button: ButtonDraft;
  onChange(button: ButtonDraft): void;
  onRemove(): void;
  errors: Partial<Record<string, string>>;
}) {
  const path = `/buttons/${index}`;
  return (
    <fieldset>
      <legend>Button {index + 1}</legend>
      <Field
        label="Button text"
        name={`iam-button-${index}-text`}
        required
        value={button.text}
        error={errors[`${path}/text`]}
        onInput={(text) => onChange({ ...button, text })}
      />
      <Select
        label="Button action"
        name={`iam-button-${index}-action`}
        value={button.action}
        options={[
          ['url', 'Open a URL'],
          ['close', 'Close the message'],
        ]}
        onChange={(action) => onChange({ ...button, action })}
      />
      {button.action === 'url' && (
        <Field
          label="Button URL"
          name={`iam-button-${index}-url`}
          required
          value={button.url}
          error={errors[`${path}/url`]}
          hint="http:// or https:// only."
          onInput={(url) => onChange({ ...button, url })}
        />
      )}
      {/* The id names the button in click stats and the SDK's callbacks: set for it, there for an engineer. */}
      <Advanced open={errors[`${path}/id`] !== undefined || undefined}>
        <Field
          label="Button id"
          name={`iam-button-${index}-id`}
          required
          value={button.id}
          error={errors[`${path}/id`]}
          onInput={(id) => onChange({ ...button, id })}
        />
      </Advanced>
      <button type="button" class="secondary" onClick={onRemove}>
        Remove button {index + 1}
      </button>
    </fieldset>
  );
}
