import { prettyFactory } from 'pino-pretty';

const logFormats = ['json', 'pretty'] as const;

/**
 * Readable logs for a person at a terminal, JSON for anything else (a file, a collector); LOG_FORMAT=pretty or json
 * decides instead, either way.
 */
export function wantsReadableLogs(env: NodeJS.ProcessEnv, isTerminal: boolean): boolean {
  const format = env.LOG_FORMAT || undefined;
  if (format === undefined) return isTerminal;
  if (format === 'pretty') return true;
  if (format === 'json') return false;
  throw new Error(`LOG_FORMAT must be one of ${logFormats.join(', ')}, got "${format}"`);
}

/**
 * How a line of a child's output is shown: every process logs pino's JSON, which the supervisor turns into one
 * readable line when asked to, coloured only for a terminal (a file would keep the escape codes). Anything that is
 * not a pino log line passes as it is. The process is named by the line's prefix, so its field is not repeated.
 */
export function lineFormatter(readable: boolean, colours = readable): (line: string) => string {
  if (!readable) return (line) => line;
  const pretty = prettyFactory({
    colorize: colours,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,process',
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
