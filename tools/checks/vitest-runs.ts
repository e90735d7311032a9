import { type ChildProcess, type IOType, type SpawnOptions, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

export interface VitestRun {
  /** Whether every file of the run passed. */
  passed: Promise<boolean>;
  /** Prints the output held so far and the rest as it comes (a run started with `holdOutput`). */
  showOutput(): void;
}

export interface VitestRunOptions {
  env?: NodeJS.ProcessEnv;
  /** A nice value: the run, its workers and every server and browser they start take the time others leave. */
  niceness?: number;
  /** Keeps the output until `showOutput`, so that two runs' reports do not interleave line by line. */
  holdOutput?: boolean;
}

/** `vitest run` with the arguments, in a process of its own. */
export function startVitestRun(
  args: string[],
  { env, niceness, holdOutput = false }: VitestRunOptions = {},
): VitestRun {
  const command = [process.execPath, vitest, 'run', ...args];
  const output: IOType = holdOutput ? 'pipe' : 'inherit';
  const options: SpawnOptions = { stdio: ['ignore', output, output], env };
  const child: ChildProcess =
    niceness === undefined
      ? spawn(process.execPath, command.slice(1), options)
      : spawn('nice', ['-n', String(niceness), ...command], options);
  let held: Buffer[] | undefined = holdOutput ? [] : undefined;
  const write = (chunk: Buffer) => (held === undefined ? process.stdout.write(chunk) : held.push(chunk));
  child.stdout?.on('data', write);
  child.stderr?.on('data', write);
  const passed = new Promise<boolean>((resolve) => {
    child.on('error', (error) => {
      process.stdout.write(`vitest did not start: ${error.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
  return {
    passed,
    showOutput() {
      if (held === undefined) return;
      process.stdout.write(Buffer.concat(held));
      held = undefined;
    },
  };
}
