import { findOnPath } from './find-executable.ts';
import { describeFailure, runCommand } from './run-command.ts';

const APT_TIMEOUT_MS = 10 * 60_000;

/**
 * Installs Debian packages when this process may (root, apt-get present), logging what it does.
 * Answers whether it tried: the caller checks for the program itself and says what to install when it is still missing.
 */
export async function aptInstall(packages: string[], log: (line: string) => void): Promise<boolean> {
  if (process.getuid?.() !== 0 || findOnPath('apt-get') === undefined) return false;
  const list = packages.join(' ');
  log(`installing ${list} with apt-get (apt-get update && apt-get install -y ${list})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await runCommand('apt-get', ['update'], { timeoutMs: APT_TIMEOUT_MS, env });
  if (update.exitCode !== 0) log(describeFailure('apt-get update', update));
  const install = await runCommand('apt-get', ['install', '-y', ...packages], { timeoutMs: APT_TIMEOUT_MS, env });
  if (install.exitCode !== 0) log(describeFailure(`apt-get install -y ${list}`, install));
  return true;
}
