import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiFailure } from './api.ts';
import { ErrorMessage } from './ui.tsx';
import { FormError } from './fields.tsx';
import { ApiIds } from './layout.tsx';

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
 * is open, the error of either in words (the save's as placeErrors left it), and the open item's id under Advanced.
 */
export function SaveControls({
  saveLabel,
  save,
  unplaced,
  remove,
  editing,
  onRemove,
  removeWarning,
  children,
}: {
  saveLabel: string;
  save: ActionState<unknown>;
  /** What of the save's error no field holds (placeErrors). */
  unplaced: ApiFailure | undefined;
  remove: ActionState<unknown>;
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
      <FormError error={save.error} unplaced={unplaced} what="fields" />
      <ErrorMessage error={remove.error} />
      {editing !== null && <ApiIds ids={[['Id for the API', editing]]} />}
    </>
  );
}
