import { prettyFactory } from 'pino-pretty';

/** Readable logs for a person at a terminal; JSON for anything else (a file, a collector) or when LOG_FORMAT=json. */
export function wantsReadableLogs(env: NodeJS.ProcessEnv, isTerminal: boolean): boolean {
  return isTerminal && env.LOG_FORMAT !== 'json';
}

/**
 * How a line of a child's output is shown: every process logs pino's JSON, which the supervisor turns into one
 * readable line when asked to. Anything that is not a pino log line passes as it is.
 */
export function lineFormatter(readable: boolean): (line: string) => string {
  if (!readable) return (line) => line;
  const pretty = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record !== 'object' || record === null || !('level' in record)) return line;
      return pretty(record).trimEnd();
    } catch {
      return line;
    }
  };
}
