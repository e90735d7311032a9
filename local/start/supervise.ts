import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ProcfileEntry } from './procfile.ts';

const stopGraceMs = 35_000;

/**
 * Runs each entry as a child with its output, line by line through formatLine, prefixed by its name; resolves with
 * the first unexpected exit.
 */
export function superviseProcesses(
  entries: ProcfileEntry[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  formatLine: (line: string) => string,
) {
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const firstExit = new Promise<string>((resolve) => {
    for (const entry of entries) {
      // exec: Debian's sh (dash) otherwise stays as the parent, takes the SIGTERM and dies, and the process lives on.
      const child = spawn(`exec ${entry.command}`, { shell: true, cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.set(entry.name, child);
      for (const stream of [child.stdout, child.stderr]) {
        // Whole lines, however the pipe splits them: a log line is parsed as JSON.
        createInterface({ input: stream! }).on('line', (line) => {
          if (line !== '') process.stdout.write(`${entry.name.padEnd(20)}| ${formatLine(line)}\n`);
        });
      }
      child.on('exit', (code, signal) => {
        children.delete(entry.name);
        if (!stopping) resolve(`${entry.name} exited (${signal ?? `code ${code}`})`);
      });
    }
  });

  async function stopAll(): Promise<void> {
    stopping = true;
    const exits = [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
  }

  /** Ctrl-C again: each process exits without waiting for its work in flight (onStopSignals). */
  function interruptAll(): void {
    for (const child of children.values()) child.kill('SIGINT');
  }

  return { firstExit, stopAll, interruptAll };
}
