import type { Logger } from 'pino';

/**
 * Calls stop once, on the first SIGTERM or SIGINT. A second SIGINT (Ctrl-C pressed again at a terminal, which
 * reaches every process of `npm start`) exits at once, as docker compose and foreman do: whoever presses it chose
 * not to wait for the grace period. What a worker leaves active is recovered like a crash (CONTRACTS §1).
 */
export function onStopSignals(log: Logger, stop: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!stopping) {
        stopping = true;
        stop(signal);
      } else if (signal === 'SIGINT') {
        log.warn('interrupted again: exiting without waiting');
        process.exit(130);
      }
    });
  }
}
