/**
 * The layout every screen is built from, so that each holds at 1280 and at 390 px alike: sections under headings, a
 * table that becomes labelled cards on a phone, a bar of actions that stays in reach, a toast, an "Advanced" fold for
 * what only an engineer needs, and a copy button for secrets.
 */
import { type ComponentChildren, Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const headingId = (title: string) => `section-${title.replace(/\W+/g, '-').toLowerCase()}`;

/** A part of a screen under its own heading, named by it for assistive technology. */
export function Section({ title, children, testId }: { title: string; children: ComponentChildren; testId?: string }) {
  const id = headingId(title);
  return (
    <section class="section" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export interface Column<T> {
  label: string;
  cell(row: T): ComponentChildren;
  /**
   * A number is aligned right and never wraps; a time never wraps; an id wraps at any character, as it has no words;
   * a message is given room and wraps a long word rather than widen the table.
   */
  kind?: 'number' | 'id' | 'when' | 'message';
}

/**
 * A table at a laptop's width; under 600 px each row is a card whose cells carry their column's label, so that no
 * column is squeezed to a letter a line and no header is lost.
 */
export function DataTable<T>({
  caption,
  showCaption = false,
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
}: {
  caption: string;
  showCaption?: boolean;
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string;
  rowProps?(row: T): Record<`data-${string}`, string>;
  testId?: string;
}) {
  return (
    <table class="list cards" data-testid={testId}>
      <caption class={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.label} class={column.kind}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <td key={column.label} data-label={column.label} class={column.kind}>
                {/* One box beside the label on a phone, however many elements the cell holds. */}
                <div class="cell">{column.cell(row)}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The form's main actions, kept in view at the bottom of the window while the form is longer than it. */
export function ActionBar({ children }: { children: ComponentChildren }) {
  return <div class="action-bar">{children}</div>;
}

/** A short confirmation that something was done, read out once and gone after a few seconds. */
export function Toast({ message, onDone }: { message: string | null; onDone(): void }) {
  useEffect(() => {
    if (message === null) return;
    const timer = setTimeout(onDone, 5000);
    return () => clearTimeout(timer);
  }, [message]);
  return (
    <div class="toast" role="status" aria-live="polite">
      {message}
    </div>
  );
}

/** A screen's toast and the function that shows a message in it: `toast` goes once at the end of the screen. */
export function useToast(): { toast: ComponentChildren; say(message: string): void } {
  const [message, setMessage] = useState<string | null>(null);
  return { toast: <Toast message={message} onDone={() => setMessage(null)} />, say: setMessage };
}

/** What only an engineer needs (keys, raw ids, retries), folded away under "Advanced". */
export function Advanced({ children, open }: { children: ComponentChildren; open?: boolean }) {
  return (
    // Opened when what it holds has an error to show.
    <details class="advanced" open={open}>
      <summary>Advanced</summary>
      {children}
    </details>
  );
}

/** The ids an engineer gives the API for what is on screen, each named, folded under "Advanced". */
export function ApiIds({ ids }: { ids: ReadonlyArray<readonly [label: string, id: string]> }) {
  return (
    <Advanced>
      <dl class="facts">
        {ids.map(([label, id]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>
              <code data-testid="api-id">{id}</code>
            </dd>
          </Fragment>
        ))}
      </dl>
    </Advanced>
  );
}

/** A secret shown once, with a button that copies it; the clipboard needs a secure context, else the text is selected. */
export function Secret({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret">
      <span>{label}</span>
      <code data-testid={testId}>{value}</code>
      <button
        type="button"
        class="secondary"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={async (event) => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied(true);
          } catch {
            const code = (event.currentTarget as HTMLElement).previousElementSibling;
            if (code) getSelection()?.selectAllChildren(code);
          }
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
