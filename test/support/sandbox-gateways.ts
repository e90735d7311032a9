import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/start-sandbox.ts';
import { createSandboxGateways } from '../../src/gateways/sandbox-gateways.ts';
import type { ClosableGateway } from '../../src/gateways/closable-gateway.ts';

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
    await Promise.all([gateways.fcm?.close(), gateways.apns?.close()]);
    await gateways.sandbox?.close();
  });
  return gateways;
}
