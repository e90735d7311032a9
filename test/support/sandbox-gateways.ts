import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';
import { createSandboxGateways } from '../../src/gateways/sandbox-gateways.ts';
import type { ClosableGateway } from '../../src/gateways/closable-gateway.ts';
import { findFreePort } from '../../local/services/free-port.ts';

export interface SandboxGateways {
  sandbox: Sandbox;
  fcm: ClosableGateway;
  apns: ClosableGateway;
}

/** A sandbox and both adapters pointed at it for the test file; the returned object is filled before the tests run. */
export function useSandboxGateways(): SandboxGateways {
  const gateways = {} as SandboxGateways;
  beforeAll(async () => {
    gateways.sandbox = await startSandbox({ port: 0 });
    Object.assign(gateways, createSandboxGateways(gateways.sandbox.port));
  });
  afterAll(async () => {
    await closeAdapters(gateways);
    await gateways.sandbox?.close();
  });
  return gateways;
}

/** Both adapters pointed at a port where nothing listens, for as long as `use` runs. */
export async function withUnreachableGateways(
  use: (gateways: Omit<SandboxGateways, 'sandbox'>) => Promise<void>,
): Promise<void> {
  await withGatewaysAt(await findFreePort(), use);
}

/** Both adapters pointed at a server of the test's own on `port`, for as long as `use` runs. */
export async function withGatewaysAt(
  port: number,
  use: (gateways: Omit<SandboxGateways, 'sandbox'>) => Promise<void>,
): Promise<void> {
  const gateways = createSandboxGateways(port);
  try {
    await use(gateways);
  } finally {
    await closeAdapters(gateways);
  }
}

/** Optional calls: a sandbox that failed to start left no adapters. */
function closeAdapters(gateways: Partial<Omit<SandboxGateways, 'sandbox'>>): Promise<unknown> {
  return Promise.all([gateways.fcm?.close(), gateways.apns?.close()]);
}
