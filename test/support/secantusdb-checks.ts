import { join } from 'node:path';
import { findOrInstallSecantusDb } from '../../local/services/secantusdb-install.ts';
import { runCommand } from '../../local/services/run-command.ts';

/**
 * Runs one of test/support's Python checks of the local server's mends (a file name there) with SecantusDB's own
 * python, which has the server's modules: its output, which ends with the count of differences, and its exit code.
 */
export async function runSecantusDbCheck(script: string) {
  const { python } = await findOrInstallSecantusDb(() => {});
  return runCommand(python, [join(import.meta.dirname, script)], { timeoutMs: 60_000 });
}
