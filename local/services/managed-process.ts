import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { findOnPath } from './find-executable.ts';

const STOP_GRACE_MS = 5_000;
const OUTPUT_LINES_KEPT = 60;

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  hasExited(): boolean;
  /** Resolves with a description of how the process ended; never rejects. */
  readonly exited: Promise<string>;
  outputTail(lines?: number): string;
  /** SIGTERM, SIGKILL after 5 s, then removes removeOnStop (if any). Safe to call more than once. */
  stop(): Promise<void>;
}

export interface ManagedProcessOptions {
  name: string;
  command: string;
  args: string[];
  /** Directory deleted after the process is gone (also on parent exit). */
  removeOnStop?: string;
  cwd?: string;
}

interface LiveChild {
  child: ChildProcess;
  removeOnStop?: string;
}

const liveChildren = new Set<LiveChild>();
let exitHookInstalled = false;

/** 'exit' handlers must be synchronous, so this can only SIGKILL and rm; it is the last resort when stop() was never called. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const live of liveChildren) {
      try {
        live.child.kill('SIGKILL');
      } catch {}
      if (live.removeOnStop !== undefined) {
        try {
          rmSync(live.removeOnStop, { recursive: true, force: true });
        } catch {}
      }
    }
  });
}

/**
 * When available, setpriv makes the kernel SIGKILL the child if this process dies in a way
 * that skips 'exit' handlers (SIGKILL, a crash, an unhandled signal). It execs, so the pid stays the same.
 */
const setprivPath = findOnPath('setpriv');
function withParentDeathSignal(command: string, args: string[]): [string, string[]] {
  if (setprivPath === undefined) return [command, args];
  return [setprivPath, ['--pdeathsig', 'KILL', '--', command, ...args]];
}

export async function startManagedProcess(options: ManagedProcessOptions): Promise<ManagedProcess> {
  installExitHook();
  const [command, args] = withParentDeathSignal(options.command, options.args);
  // A process group of its own: Ctrl-C signals the terminal's whole foreground group, and a storage server that took
  // it would stop under the workers still finishing their jobs; npm start stops the servers after them. The parent's
  // death still takes it down (setpriv above, the exit hook).
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: options.cwd, detached: true });

  const output: string[] = [];
  const keepOutput = (chunk: Buffer): void => {
    output.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    if (output.length > OUTPUT_LINES_KEPT) output.splice(0, output.length - OUTPUT_LINES_KEPT);
  };
  child.stdout?.on('data', keepOutput);
  child.stderr?.on('data', keepOutput);

  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) =>
      reject(new Error(`${options.name}: could not start ${options.command}: ${error.message}`)),
    );
  });

  const live: LiveChild = { child, removeOnStop: options.removeOnStop };
  liveChildren.add(live);
  let exitedFlag = false;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      liveChildren.delete(live);
      resolve(signal !== null ? `killed by ${signal}` : `exited with code ${code}`);
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (!exitedFlag) {
        child.kill('SIGTERM');
        const graceful = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
        if (!graceful) child.kill('SIGKILL');
        await exited;
      }
      if (options.removeOnStop !== undefined) await rm(options.removeOnStop, { recursive: true, force: true });
    })();
    return stopping;
  };

  return {
    name: options.name,
    pid: child.pid as number,
    hasExited: () => exitedFlag,
    exited,
    outputTail: (lines = 20) => output.slice(-lines).join('\n'),
    stop,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
