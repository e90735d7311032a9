import { pino, type Logger } from 'pino';

export function createLogger(config: { logLevel: string }, processName: string): Logger {
  return pino({ level: config.logLevel, base: { process: processName, pid: process.pid } });
}
