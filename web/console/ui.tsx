import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiFailure } from './api.ts';
import type { Loaded } from './hooks.ts';

/** The API's own message (CONTRACTS §1) and each offending field, announced to screen readers. */
export function ErrorMessage({ error }: { error: ApiFailure | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={detail.path + detail.message}>
              <code>{detail.path || '(request)'}</code> {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** Loading, error or empty state in place of the content, else the content for the loaded data (under an error that
 * a failed refresh left). */
export function LoadedView<T>({
  loaded,
  empty,
  isEmpty,
  children,
}: {
  loaded: Loaded<T>;
  empty?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.data === undefined)
    return loaded.error ? <ErrorMessage error={loaded.error} /> : loaded.loading ? <Loading /> : null;
  if (empty !== undefined && (isEmpty ? isEmpty(loaded.data) : Array.isArray(loaded.data) && loaded.data.length === 0))
    return (
      <>
        <ErrorMessage error={loaded.error} />
        <Empty>{empty}</Empty>
      </>
    );
  return (
    <>
      <ErrorMessage error={loaded.error} />
      {children(loaded.data)}
    </>
  );
}

interface FieldProps {
  label: string;
  value: string;
  onInput(value: string): void;
  hint?: string;
  type?: 'text' | 'number' | 'password' | 'datetime-local';
  required?: boolean;
  multiline?: boolean;
  name?: string;
  error?: string;
}

/** A labelled text input (or textarea), with an optional hint and inline error tied to it for assistive technology. */
export function Field({ label, value, onInput, hint, type = 'text', required, multiline, name, error }: FieldProps) {
  const id = `field-${(name ?? label).replace(/\W+/g, '-').toLowerCase()}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
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
      ) : type === 'datetime-local' ? (
        <input type="datetime-local" {...common} />
      ) : (
        <input type="text" {...common} />
      )}
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
    </div>
  );
}

interface SelectProps<V extends string> {
  label: string;
  value: V;
  options: ReadonlyArray<readonly [NoInfer<V>, string]>;
  onChange(value: NoInfer<V>): void;
  name?: string;
}

export function Select<V extends string>({ label, value, options, onChange, name }: SelectProps<V>) {
  const id = `select-${(name ?? label).replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
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

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString();
}

/** Any value as text: objects as JSON, so hostile strings stay inert text wherever they are shown. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Tags as `format` writes each value (asText unless given), with the value's JSON type for tests and styles. */
export function Tags({
  tags,
  format = asText,
}: {
  tags: Record<string, unknown>;
  format?: (value: unknown) => string;
}) {
  const entries = Object.entries(tags);
  if (entries.length === 0) return <span class="muted">no tags</span>;
  return (
    <dl class="tags">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd data-type={typeof value}>{format(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Whether an editor holds what was saved, compared as the API would take both. */
export const unchanged = (current: unknown, saved: unknown): boolean =>
  JSON.stringify(current) === JSON.stringify(saved);

const confirmDiscard = () => window.confirm('Discard the changes you have not saved?');

/** Whether the shown screen holds edits not saved: one screen shows at a time, so one check at most. */
let screenHasUnsavedEdits: (() => boolean) | null = null;

/**
 * Registers whether the screen holds edits not saved, asked before the console shows another screen (a menu link,
 * back or forward) or project, signs out, or the tab closes or reloads. Answers the screen's own check, for what it
 * replaces itself (another template opened): whether it may, the user agreeing to lose the edits if there are some.
 */
export function useUnsavedEdits(hasUnsavedEdits: () => boolean): () => boolean {
  const latest = useRef(hasUnsavedEdits);
  latest.current = hasUnsavedEdits;
  useEffect(() => {
    screenHasUnsavedEdits = () => latest.current();
    // The browser asks its own question: a page may not word it.
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current()) event.preventDefault();
    };
    addEventListener('beforeunload', warn);
    return () => {
      screenHasUnsavedEdits = null;
      removeEventListener('beforeunload', warn);
    };
  }, []);
  return () => !latest.current() || confirmDiscard();
}

export const mayLeaveScreen = (): boolean => !(screenHasUnsavedEdits?.() ?? false) || confirmDiscard();

/** A button for what cannot be undone: a first click asks, with what will happen, and only "Yes" does it. */
export function ConfirmButton({
  label,
  question,
  disabled,
  onConfirm,
}: {
  label: string;
  question: string;
  disabled?: boolean;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  // The button pressed is replaced by the question, and the question by the button: the focus goes from one to the
  // other (to the safe answer), not to the page's start.
  const keep = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useLayoutEffect(() => {
    if (asking) keep.current?.focus();
    else if (answered.current) ask.current?.focus();
  }, [asking]);
  const keepIt = () => {
    answered.current = true;
    setAsking(false);
  };
  if (!asking)
    return (
      <button type="button" class="danger" ref={ask} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    // Escape answers as Keep it does.
    <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && keepIt()}>
      <legend class="visually-hidden">{label}</legend>
      <span>{question}</span>{' '}
      <button
        type="button"
        class="danger"
        disabled={disabled}
        onClick={() => {
          answered.current = true;
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.charAt(0).toLowerCase()}
        {label.slice(1)}
      </button>{' '}
      <button type="button" class="secondary" ref={keep} onClick={keepIt}>
        Keep it
      </button>
    </fieldset>
  );
}

interface ActionState<T> {
  running: boolean;
  error?: ApiFailure;
  result?: T;
}

/**
 * The end of an editor's form: the screen's own buttons, then Save (submits the form), Delete while an existing item
 * is open, the error of either, and which id was saved.
 */
export function SaveControls({
  saveLabel,
  save,
  remove,
  editing,
  onRemove,
  removeWarning,
  children,
}: {
  saveLabel: string;
  save: ActionState<{ id: string }>;
  /** Answers the id it deleted. */
  remove: ActionState<string>;
  editing: string | null;
  onRemove: (id: string) => void;
  /** What else deleting it changes, for the question before it. */
  removeWarning: string;
  children?: ComponentChildren;
}) {
  return (
    <>
      <div class="actions">
        {children}
        <button type="submit" disabled={save.running}>
          {saveLabel}
        </button>
        {editing !== null && (
          <ConfirmButton
            key={editing}
            label="Delete"
            question={`Delete it for good? ${removeWarning}`}
            disabled={remove.running}
            onConfirm={() => onRemove(editing)}
          />
        )}
      </div>
      <ErrorMessage error={save.error ?? remove.error} />
      {editing !== null && save.result?.id === editing && !save.running && (
        <p role="status" class="notice">
          Saved <code>{save.result.id}</code>.
        </p>
      )}
      {editing === null && remove.result !== undefined && (
        <p role="status" class="notice">
          Deleted <code>{remove.result}</code>.
        </p>
      )}
    </>
  );
}
