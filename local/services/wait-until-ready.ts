import type { ManagedProcess } from './managed-process.ts';

const POLL_INTERVAL_MS = 100;

/**
 * Polls isReady until it returns true. Throws (with the process's last output) if the process
 * exits first or timeoutMs passes; the caller is responsible for stopping the process then.
 */
export async function waitUntilReady(
  managed: ManagedProcess,
  isReady: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitReason: string | undefined;
  void managed.exited.then((reason) => {
    exitReason = reason;
  });
  while (true) {
    if (exitReason !== undefined || managed.hasExited()) {
      throw new Error(
        `${managed.name} ${exitReason ?? 'exited'} before it was ready. Last output:\n${managed.outputTail()}`,
      );
    }
    if (await isReady()) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `${managed.name} did not become ready within ${timeoutMs} ms. Last output:\n${managed.outputTail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
