import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { QueueName } from '../../src/infra/queue-names.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { PlanName } from '../../src/plans/plans.ts';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';
import { startIngress, useProjects, type TestIngress } from './ingress.ts';
import { startTestWorkers, type TestWorkers } from './workers.ts';
import { testConfig } from './test-config.ts';
import { eventually } from './eventually.ts';
import { useResource } from './use-resource.ts';

export interface DeliveryHarness {
  config: Config;
  sandbox: Sandbox;
  ingress: TestIngress;
  workers: TestWorkers;
  close(): Promise<void>;
}

/** Ingress, send and deliver workers and the sandbox gateways, as a customer's installation runs them. */
export async function startDeliveryHarness(
  overrides: Partial<Config> = {},
  queues: QueueName[] = ['send', 'deliver'],
): Promise<DeliveryHarness> {
  const sandbox = await startSandbox({ port: 0 });
  const config = testConfig({ sandboxPort: sandbox.port, ...overrides });
  const ingress = await startIngress(config);
  const workers = await startTestWorkers(config, queues);
  return {
    config,
    sandbox,
    ingress,
    workers,
    async close() {
      await workers.close();
      await ingress.close();
      await sandbox.close();
    },
  };
}

export interface DeliveryHarnessOptions<ProjectName extends string> {
  configOverrides?: Partial<Config>;
  /** The queues whose workers run in-process; send and deliver unless given. */
  queues?: QueueName[];
  /** The projects the tests use, by the name they use them under, each with its plan; created in this order. */
  projects?: Record<ProjectName, PlanName>;
}

/**
 * The delivery harness and the named projects, started before the file's tests and closed after them. Both objects
 * handed out are filled in before the tests run, so the file can destructure them at the top.
 */
export function useDeliveryHarness<ProjectName extends string = never>(
  options: DeliveryHarnessOptions<ProjectName> = {},
): { harness: DeliveryHarness; projects: Record<ProjectName, CreatedProject> } {
  const harness = useResource(() => startDeliveryHarness(options.configOverrides, options.queues));
  const projects = useProjects(() => harness.ingress, options.projects);
  return { harness, projects };
}

export interface DeviceSpec {
  id: string;
  platform: 'android' | 'ios' | 'web';
  token: string;
  userId?: string;
  tags?: Record<string, string | number>;
}

export async function registerDevices(
  ingress: TestIngress,
  project: CreatedProject,
  devices: DeviceSpec[],
): Promise<void> {
  for (const device of devices) {
    const response = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${device.id}`, {
      key: project.clientKey,
      body: { platform: device.platform, pushToken: device.token, userId: device.userId, tags: device.tags },
    });
    expect(response.status).toBe(200);
  }
}

export async function sendNotification(
  ingress: TestIngress,
  project: CreatedProject,
  body: unknown,
  headers?: Record<string, string>,
): Promise<string> {
  const response = await ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
    key: project.apiKey,
    body,
    headers,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id;
}

/** PUTs the journey back as it reads, inactive, as the console's Pause does. */
export async function deactivateJourney(ingress: TestIngress, project: CreatedProject, journeyId: string) {
  const path = `/v1/projects/${project.projectId}/journeys/${journeyId}`;
  const {
    id: _id,
    createdAt: _c,
    updatedAt: _u,
    ...definition
  } = (await ingress.request('GET', path, { key: project.apiKey })).body.data;
  const replaced = await ingress.request('PUT', path, { key: project.apiKey, body: { ...definition, active: false } });
  expect(replaced.status).toBe(200);
}

export async function readNotification(ingress: TestIngress, project: CreatedProject, id: string) {
  const response = await ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${id}`, {
    key: project.apiKey,
  });
  expect(response.status).toBe(200);
  return response.body.data;
}

export function waitUntilCompleted(ingress: TestIngress, project: CreatedProject, id: string, timeoutMs?: number) {
  return eventually(async () => {
    const notification = await readNotification(ingress, project, id);
    expect(notification.status).toBe('completed');
    return notification;
  }, timeoutMs);
}
