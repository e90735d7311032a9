import { readFileSync } from 'node:fs';

export interface ProcfileEntry {
  name: string;
  command: string;
}

/** The Procfile is the one list of processes: npm start runs exactly what a Procfile-based platform would. */
export function readProcfile(path: string): ProcfileEntry[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const separator = line.indexOf(':');
      if (separator <= 0) throw new Error(`${path}: "${line}" is not "name: command"`);
      return { name: line.slice(0, separator).trim(), command: line.slice(separator + 1).trim() };
    });
}
