import { fileURLToPath } from 'node:url';

/**
 * A test about a minute's turn whose installation runs in processes of its own moves every clock of it ahead by the
 * same amount, exactly: its own process with moveClockAhead, and each process it starts with the environment of
 * clockAheadEnv (Node.js preloads this module, which reads CLOCK_AHEAD_MS). Date.now() and a Date made without a value
 * read the moved clock; timers, performance.now() and the servers' own clocks are untouched.
 */
export function moveClockAhead(aheadMs: number): () => void {
  const RealDate = globalThis.Date;
  const now = () => RealDate.now() + aheadMs;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  });
  return () => {
    globalThis.Date = RealDate;
  };
}

/** How far to move the clocks for a minute to turn `leadMs` from now: 0 up to a minute. */
export function aheadForATurnIn(leadMs: number): number {
  const now = Date.now();
  return Math.ceil((now + leadMs) / 60_000) * 60_000 - leadMs - now;
}

/** The environment that starts a Node.js process with its clock `aheadMs` ahead. */
export const clockAheadEnv = (aheadMs: number): Record<string, string> => ({
  NODE_OPTIONS: `--import ${fileURLToPath(import.meta.url)}`,
  CLOCK_AHEAD_MS: String(aheadMs),
});

const fromEnvironment = Number(process.env.CLOCK_AHEAD_MS ?? 0);
if (fromEnvironment > 0) moveClockAhead(fromEnvironment);
