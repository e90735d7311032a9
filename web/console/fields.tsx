import type { Loaded } from './hooks.ts';
import type { ApiFailure } from './api.ts';
import { ErrorMessage, Loading } from './ui.tsx';

interface FieldProps {
  label: string;
  value: string;
  onInput(value: string): void;
  hint?: string;
  type?: 'text' | 'number' | 'password' | 'datetime-local' | 'time';
  /** The id of a <datalist> of suggestions. */
  list?: string;
  required?: boolean;
  multiline?: boolean;
  name?: string;
  error?: string;
}

/** A labelled text input (or textarea), with an optional hint and inline error tied to it for assistive technology. */
export function Field({
  label,
  value,
  onInput,
  hint,
  type = 'text',
  required,
  multiline,
  name,
  error,
  list,
}: FieldProps) {
  const id = `field-${(name ?? label).replace(/\W+/g, '-').toLowerCase()}`;
  const described = describedBy(id, hint, error);
  const common = {
    id,
    name: name ?? id,
    value,
    required,
    'aria-describedby': described,
    'aria-invalid': error ? true : undefined,
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea rows={4} {...common} />
      ) : type === 'password' ? (
        <input type="password" autocomplete="off" {...common} />
      ) : type === 'number' ? (
        <input type="number" {...common} />
      ) : type === 'datetime-local' || type === 'time' ? (
        <input type={type} {...common} />
      ) : (
        <input type="text" list={list} autocomplete={list && 'off'} {...common} />
      )}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** Which notes describe the control of that id, for its aria-describedby. */
export const describedBy = (id: string, hint?: string, error?: string): string | undefined =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

/** A control's hint and its error in words, under it, tied to it by describedBy. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </>
  );
}

interface SelectProps<V extends string> {
  label: string;
  value: V;
  options: ReadonlyArray<readonly [NoInfer<V>, string]>;
  onChange(value: NoInfer<V>): void;
  name?: string;
  error?: string;
}

export function Select<V extends string>({ label, value, options, onChange, name, error }: SelectProps<V>) {
  const id = `select-${(name ?? label).replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy(id, undefined, error)}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          const select = event.currentTarget as HTMLSelectElement;
          onChange(select.value as V);
          // Shown as the value until it changes: a choice refused (edits kept) goes back, an accepted one follows.
          select.value = value;
        }}
      >
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

/** A choice among items still loading from the API (templates, segments), or why there is none to choose. */
export function NamedItemSelect({
  items,
  loading,
  empty,
  placeholder,
  ...select
}: Omit<SelectProps<string>, 'options'> & {
  items: Loaded<ReadonlyArray<{ id: string; name: string }>>;
  loading: string;
  empty: string;
  /** The first option, with the value '': nothing is chosen until the user chooses. */
  placeholder?: string;
}) {
  if (items.data === undefined) return items.error ? <ErrorMessage error={items.error} /> : <Loading what={loading} />;
  if (items.data.length === 0) return <p class="empty">{empty}</p>;
  const options = items.data.map((item) => [item.id, item.name] as const);
  return (
    <Select {...select} options={placeholder === undefined ? options : [['', placeholder] as const, ...options]} />
  );
}

interface CheckboxProps {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  name?: string;
  class?: string;
}

/** A labelled checkbox on one row, the box before its label, reporting whether it is now checked. */
export function Checkbox({ label, checked, onChange, name, class: className }: CheckboxProps) {
  return (
    <label class={className === undefined ? 'checkbox-row' : `checkbox-row ${className}`}>
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)}
      />
      <span>{label}</span>
    </label>
  );
}

/**
 * A form's error once its fields have theirs (placeErrors): a pointer to the marked fields when all were placed, else
 * what no field on screen holds, in words (placeErrors worded it), or the API's own message when it names no field.
 */
export function FormError({ error, unplaced, what }: { error?: ApiFailure; unplaced?: ApiFailure; what: string }) {
  if (error !== undefined && unplaced === undefined)
    return (
      <p class="error" role="alert">
        Some {what} need a change: see the marked fields.
      </p>
    );
  if (unplaced === undefined || unplaced.details.length === 0) return <ErrorMessage error={unplaced} />;
  return (
    <div class="error" role="alert">
      <p>Some {what} need a change:</p>
      <ul>
        {unplaced.details.map((detail) => (
          <li key={detail.message}>{detail.message}</li>
        ))}
      </ul>
    </div>
  );
}
