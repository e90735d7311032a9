import { useEffect, useState } from 'preact/hooks';
import { useAction, useLoad, type Loaded } from './hooks.ts';
import { ErrorMessage } from './ui.tsx';

/**
 * A list read a page at a time, newest or in key order: the first page loads when a dependency changes (dropping
 * pages loaded for the old ones), each further page from after the last row's cursor. The list has ended once a
 * page comes back short.
 */
export function usePagedList<T>(
  page: (cursor: string | undefined, limit: number) => Promise<T[]>,
  cursorOf: (row: T) => string,
  pageSize: number,
  deps: unknown[],
) {
  const first: Loaded<T[]> = useLoad(() => page(undefined, pageSize), deps);
  // The pages read past the first, since the first was last read.
  const [more, setMore] = useState<T[][]>([]);
  useEffect(() => setMore([]), [first.data]);
  const rows = [...(first.data ?? []), ...more.flat()];
  const ended = (more.at(-1) ?? first.data ?? []).length < pageSize;
  const loadMore = useAction(async () => {
    const last = rows.at(-1);
    const next = await page(last === undefined ? undefined : cursorOf(last), pageSize);
    setMore((pages) => [...pages, next]);
  });
  return { first, rows, ended, loadMore };
}

/** The error of the last page asked for, and the button that asks for the next while there is one. */
export function LoadMore({ list }: { list: ReturnType<typeof usePagedList<unknown>> }) {
  const { rows, ended, loadMore } = list;
  return (
    <>
      <ErrorMessage error={loadMore.error} />
      {!ended && rows.length > 0 && (
        <button type="button" class="secondary" disabled={loadMore.running} onClick={() => void loadMore.run()}>
          Load more
        </button>
      )}
    </>
  );
}
