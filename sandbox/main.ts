import { startSandbox } from './start-sandbox.ts';
import { listenError, startProcess } from '../src/infra/start-up-error.ts';
import { parsePort } from '../src/config.ts';

await startProcess('sandbox', async () => {
  const requestedPort = parsePort('SANDBOX_PORT', 4100);

  // Loopback unless told otherwise: a container setup listens on 0.0.0.0 and the workers reach it as SANDBOX_HOST.
  const host = process.env.SANDBOX_LISTEN_HOST || '127.0.0.1';
  const sandbox = await startSandbox({ port: requestedPort, host }).catch((error: unknown) => {
    throw listenError(error, 'SANDBOX_PORT', requestedPort);
  });
  const base = `${host}:${sandbox.port}`;
  process.stdout.write(
    `sandbox gateways on ${base}: FCM https://${base}/v1/projects/{id}/messages:send, APNs h2 https://${base}/3/device/{token}, ` +
      `Web Push subscriptions from POST http://${base}/webpush/subscriptions; ` +
      `received pushes at http://${base}/deliveries?token=<token>\n`,
  );

  async function stop(): Promise<void> {
    await sandbox.close();
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
});
