import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Runs one of the bench's client scripts (a ceiling measured in a process of its own, so that its CPU is its alone)
 * with this Node, and answers the JSON of the last line it printed.
 */
export async function runClientProcess<T>(script: URL, args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(script), ...args], {
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
