import { createServer } from 'node:net';

/** Asks the OS for a loopback port that is free right now (it may be taken again before we use it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port the OS assigned'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

export function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && /address already in use|EADDRINUSE/i.test(error.message);
}

/** Another process can grab a probed port before the server binds it, so retry a few times on that race only. */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= attempts || !isAddressInUse(error)) throw error;
    }
  }
}

/** Starts on the fixed port when one is asked for, otherwise on any free one. */
export function startOnPort<T>(fixedPort: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  return fixedPort === undefined ? startOnFreePort(start) : start(fixedPort);
}
