import { pino, type Logger } from 'pino';
import type { Config } from '../config.ts';

export function createLogger(config: Pick<Config, 'logLevel'>, processName: string): Logger {
  return pino({ level: config.logLevel, base: { process: processName, pid: process.pid } });
}
