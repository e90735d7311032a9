import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeFailure, runCommand } from '../../local/services/run-command.ts';

export const schemathesisVersion = '4.32.5';
const installTimeoutMs = 10 * 60_000;

/**
 * Schemathesis from PyPI in a virtual environment of its own under the state directory, created on first use, so the
 * fuzz run needs only python3 on the machine and leaves the system's Python packages alone.
 */
export async function ensureSchemathesis(stateDir: string, log: (line: string) => void): Promise<string> {
  const venv = resolve(stateDir, `schemathesis-${schemathesisVersion}`);
  const executable = resolve(venv, 'bin', 'schemathesis');
  if (existsSync(executable)) {
    const version = await runCommand(executable, ['--version'], { timeoutMs: 30_000 });
    if (version.exitCode === 0 && version.stdout.includes(schemathesisVersion)) return executable;
  }
  log(`installing schemathesis ${schemathesisVersion} into ${venv}`);
  const created = await runCommand('python3', ['-m', 'venv', venv], { timeoutMs: installTimeoutMs });
  if (created.exitCode !== 0) {
    throw new Error(
      `${describeFailure('python3 -m venv', created)}\nInstall Python 3.9+ with its venv module (Debian: apt-get install -y python3-venv).`,
    );
  }
  const pip = resolve(venv, 'bin', 'pip');
  const installed = await runCommand(pip, ['install', '--quiet', `schemathesis==${schemathesisVersion}`], {
    timeoutMs: installTimeoutMs,
  });
  if (installed.exitCode !== 0)
    throw new Error(describeFailure(`pip install schemathesis==${schemathesisVersion}`, installed));
  return executable;
}
