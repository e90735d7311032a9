/** Thrown by a check when waiting longer cannot help (the process it waits for has exited): eventually stops at once. */
export class WaitingCannotHelp extends Error {}

/**
 * Polls until check() answers without throwing, for effects that land asynchronously (queues, workers). The default
 * wait is what a worker's step may take on a two-core machine loaded many times over (a test send of 60 pushes took
 * over 15 s at load average 20), not a bound on the product: a test that promises a time passes its own.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 60_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (error instanceof WaitingCannotHelp || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Reads until the value is accepted, for conditions expressed on a value rather than as assertions. */
export function waitFor<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs?: number): Promise<T> {
  return eventually(async () => {
    const value = await read();
    if (!accept(value)) throw new Error(`condition not met; last value: ${JSON.stringify(value)}`);
    return value;
  }, timeoutMs);
}
