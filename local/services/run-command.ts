import { execFile } from 'node:child_process';

export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started or was killed by the timeout. */
  failure?: string;
}

/** Runs a short command to completion; never rejects and never outlives timeoutMs. */
export function runCommand(
  command: string,
  args: string[],
  options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        cwd: options.cwd,
        env: options.env,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ exitCode: 0, stdout, stderr });
          return;
        }
        const exitCode = typeof error.code === 'number' ? error.code : null;
        const failure = error.killed
          ? `timed out after ${options.timeoutMs} ms`
          : exitCode === null
            ? error.message
            : undefined;
        resolve({ exitCode, stdout, stderr, failure });
      },
    );
  });
}

export function describeFailure(command: string, result: CommandResult): string {
  const reason = result.failure ?? `exited with code ${result.exitCode}`;
  const output = `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(-20).join('\n');
  return output === '' ? `${command} ${reason}` : `${command} ${reason}:\n${output}`;
}
