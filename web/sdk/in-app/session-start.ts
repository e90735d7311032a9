/**
 * Whether this page load starts a session: the first initialize of the project in this browser tab, as the tab's
 * sessionStorage holds it (reloads and pages of the same visit do not start another). Where the page may not use
 * sessionStorage (a sandboxed frame), every load is a session's start.
 */
export function startsSession(projectId: string): boolean {
  const key = `push-engine:session:${projectId}`;
  try {
    if (sessionStorage.getItem(key) !== null) return false;
    sessionStorage.setItem(key, String(Date.now()));
  } catch {
    return true;
  }
  return true;
}
