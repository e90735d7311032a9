import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiFailure | undefined;
  loading: boolean;
  reload(): void;
}

function asFailure(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(0, 'unexpected', (error as Error).message);
}

/**
 * Loads when a dependency changes, and again on reload(); an answer that arrives after a newer request started is
 * dropped. The last data stays on screen while the next loads (a live preview does not blank at each keystroke). A
 * reload that fails keeps the data it would have refreshed (a rate-limited refresh must not blank a list), beside its
 * error; a load for other dependencies that fails drops the data, which was for them.
 */
export function useLoad<T>(load: (() => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure; loading: boolean }>({ loading: load !== null });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  const loadedFor = useRef<unknown[] | null>(null);
  useEffect(() => {
    const sameDeps = loadedFor.current !== null && deps.every((value, index) => value === loadedFor.current![index]);
    loadedFor.current = deps;
    if (load === null) {
      setState({ loading: false });
      return;
    }
    const ticket = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => ticket === latest.current && setState({ data, loading: false }),
      (error: unknown) =>
        ticket === latest.current &&
        setState((previous) => ({
          data: sameDeps ? previous.data : undefined,
          error: asFailure(error),
          loading: false,
        })),
    );
  }, [...deps, round]);
  return {
    data: state.data,
    error: state.error,
    loading: state.loading,
    reload: useCallback(() => setRound((value) => value + 1), []),
  };
}

/** The value once it has stopped changing for a moment: live counts follow typing without a request per key. */
export function useDebounced<T>(value: T, delayMs = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** An action that shows its progress and error, e.g. a form's submit. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [state, setState] = useState<{ running: boolean; error?: ApiFailure; result?: T }>({ running: false });
  const run = async (...args: A) => {
    setState({ running: true });
    try {
      const result = await action(...args);
      setState({ running: false, result });
      return result;
    } catch (error) {
      setState({ running: false, error: asFailure(error) });
      return undefined;
    }
  };
  return { ...state, run, reset: () => setState({ running: false }) };
}

/**
 * Runs every intervalMs while the tab is visible, for statuses that change on the server. Each run is an API call that
 * counts against the project's plan limit like any other, so a tab left in the background costs nothing.
 */
export function useInterval(callback: () => void, intervalMs: number): void {
  const saved = useRef(callback);
  saved.current = callback;
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && saved.current(), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}
