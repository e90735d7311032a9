import { useEffect, useRef } from 'preact/hooks';

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
