import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { spawnNode } from './spawn-node.ts';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

export interface VitestRun {
  /** Whether every file of the run passed. */
  passed: Promise<boolean>;
  /** Prints the output held so far and the rest as it comes (a run started with `output: 'held'`). */
  showOutput(): void;
  /**
   * The end of the run's report from vitest's first failure heading on (its last lines when it printed none), for
   * `npm test` to repeat after both runs: the lanes' report may come in the middle of the parallel files' output,
   * which a log's tail would not show.
   */
  failureReport(): string;
}

export interface VitestRunOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * A nice value for the run and the processes it starts in its session. Servers and browsers start sessions of their
   * own, which Linux's autogroups weigh as any other session whatever their nice value.
   */
  niceness?: number;
  /**
   * `terminal`: the run writes to this process's stdout and stderr itself. `live` and `held`, for two runs at once:
   * through this process, where vitest draws no live summary that would erase the other run's lines, as it comes or
   * kept until `showOutput`, so that two runs' reports do not interleave line by line.
   */
  output?: 'terminal' | 'live' | 'held';
}

/** `vitest run` with the arguments, in a process of its own. */
export function startVitestRun(
  args: string[],
  { env, niceness, output = 'terminal' }: VitestRunOptions = {},
): VitestRun {
  const stdio = output === 'terminal' ? 'inherit' : 'pipe';
  // Colours as on the terminal this process writes to, which vitest cannot see through the pipe.
  const runEnv = { ...(env ?? process.env), ...(stdio === 'pipe' && process.stdout.isTTY && { FORCE_COLOR: '1' }) };
  const child = spawnNode([vitest, 'run', ...args], { stdio: ['ignore', stdio, stdio], env: runEnv, niceness });
  // Everything the run printed, kept for failureReport; a held run's is printed only from showOutput on.
  const printed: Buffer[] = [];
  let shown = output !== 'held';
  const write = (chunk: Buffer) => {
    printed.push(chunk);
    if (shown) process.stdout.write(chunk);
  };
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
      if (shown) return;
      process.stdout.write(Buffer.concat(printed));
      shown = true;
    },
    failureReport: () => reportFromFirstFailure(Buffer.concat(printed).toString('utf8')),
  };
}

// vitest's headings of the failures it lists at the end of a run: "⎯⎯ Failed Tests 2 ⎯⎯", "⎯⎯ Unhandled Errors ⎯⎯".
const failureHeading = /⎯ (Failed (Tests|Suites)|Unhandled (Errors|Rejection)) /;
const lastLinesWithoutHeading = 80;

export function reportFromFirstFailure(text: string): string {
  const lines = text.split('\n');
  // Colour codes may sit inside a heading; they are kept in what is printed.
  const first = lines.findIndex((line) => failureHeading.test(stripVTControlCharacters(line)));
  return lines.slice(first === -1 ? -lastLinesWithoutHeading : first).join('\n');
}
