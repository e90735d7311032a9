import { findOnPath } from './find-executable.ts';
import { runCommand } from './run-command.ts';

const DOCKER_INFO_TIMEOUT_MS = 3_000;

/** `docker info` succeeds only when an engine answers; the client alone is not enough. */
export async function checkDockerEngine(): Promise<{ available: boolean; reason: string }> {
  if (findOnPath('docker') === undefined) return { available: false, reason: 'no docker client on PATH' };
  const result = await runCommand('docker', ['info', '--format', '{{.ServerVersion}}'], {
    timeoutMs: DOCKER_INFO_TIMEOUT_MS,
  });
  if (result.exitCode === 0) return { available: true, reason: `Docker engine ${result.stdout.trim()}` };
  const firstErrorLine = result.stderr
    .trim()
    .split('\n')
    .find((line) => line.trim() !== '');
  return {
    available: false,
    reason: result.failure ?? firstErrorLine ?? `docker info exited with code ${result.exitCode}`,
  };
}
