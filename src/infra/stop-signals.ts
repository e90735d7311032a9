import type { Logger } from 'pino';

/**
 * One Ctrl-C can arrive twice: npm passes it on to its script while the terminal sends it to the script too (3 ms
 * apart, measured with bash as npm's script shell). A second press by a person comes later than this.
 */
export const sameInterruptMs = 250;

/** Whether a SIGINT after the first one, received at `firstAt`, is a second press rather than the same one. */
export const isSecondPress = (firstAt: number): boolean => Date.now() - firstAt >= sameInterruptMs;

/**
 * Calls stop once, on the first SIGTERM, SIGINT or SIGHUP (a closed terminal, which reaches every process `npm start`
 * runs; Node's default is to exit at once, leaving jobs to stalled-job recovery and sending their pushes again). A
 * second Ctrl-C (which reaches every process of `npm start`) exits at once, as docker compose and foreman do: whoever
 * presses it chose not to wait for the grace period. What a worker leaves active is recovered like a crash
 * (CONTRACTS §1).
 */
export function onStopSignals(log: Logger, stop: (signal: NodeJS.Signals) => void): void {
  let stoppedAt: number | undefined;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stoppedAt === undefined) {
        stoppedAt = Date.now();
        stop(signal);
      } else if (signal === 'SIGINT' && isSecondPress(stoppedAt)) {
        log.warn('interrupted again: exiting without waiting');
        process.exit(130);
      }
    });
  }
}
