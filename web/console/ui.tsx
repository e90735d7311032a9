import type { ComponentChildren } from 'preact';
import type { ApiFailure } from './api.ts';
import type { Loaded } from './hooks.ts';
import { detailInWords } from './field-errors.ts';

/** The API's own message (CONTRACTS §1) and each offending field in words, announced to screen readers. */
export function ErrorMessage({ error }: { error: ApiFailure | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={detail.path + detail.message}>{detail.path ? detailInWords(detail) : detail.message}</li>
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

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString();
}

/** A UTC day (YYYY-MM-DD) as a marketer reads it: today, yesterday, or the date; "never" for none. */
export function formatDay(day: string | null): string {
  if (day === null) return 'Never';
  const today = new Date().toISOString().slice(0, 10);
  if (day === today) return 'Today';
  if (day === new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)) return 'Yesterday';
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC', dateStyle: 'medium' });
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
