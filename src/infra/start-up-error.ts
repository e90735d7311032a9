/**
 * A process cannot start for a reason its operator fixes, a setting or a server that does not answer: said in one
 * line naming the setting, not as a stack trace.
 */
export class StartUpError extends Error {
  override name = 'StartUpError';
}

/** Runs a process's start-up; a StartUpError ends the process with its message and exit code 1. */
export async function startProcess(name: string, start: () => Promise<void>): Promise<void> {
  try {
    await start();
  } catch (error) {
    if (!(error instanceof StartUpError)) throw error;
    process.stderr.write(`${name} cannot start: ${error.message}\n`);
    process.exit(1);
  }
}

/** The error of a server socket that could not listen, as one line naming the variable that chose the port. */
export function listenError(error: unknown, variable: string, port: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return new StartUpError(`${variable} ${port} is already in use by another process`);
  if (code === 'EACCES') return new StartUpError(`${variable} ${port} may not be listened on by this user`);
  return error;
}
