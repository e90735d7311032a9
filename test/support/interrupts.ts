import { sameInterruptMs } from '../../src/infra/stop-signals.ts';

/**
 * Waits out the time in which a second SIGINT counts as the same Ctrl-C (npm and the terminal both pass it on). A
 * process measures it from when it handled the first one, which on a busy machine can be well after it was sent:
 * `firstAt` is a time taken once the process has shown that it did (a log line, a closed port), not the time sent.
 */
export const pastSameInterrupt = (firstAt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, firstAt + sameInterruptMs + 20 - Date.now())));
