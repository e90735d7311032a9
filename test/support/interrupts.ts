import { sameInterruptMs } from '../../src/infra/stop-signals.ts';

/** Waits out the time in which a second SIGINT counts as the same Ctrl-C (npm and the terminal both pass it on). */
export const pastSameInterrupt = (firstAt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, firstAt + sameInterruptMs + 20 - Date.now())));
