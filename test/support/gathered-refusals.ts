import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { RefusedDevices } from '../../src/refusals/refused-devices.ts';
import type { TestIngress } from './ingress.ts';
import { registerDevices } from './delivery-harness.ts';

/** A fresh project with `count` registered android devices, `dead-<n>` holding `token-dead-<n>`. */
export async function projectWithDevices(ingress: TestIngress, count: number) {
  const project: CreatedProject = await ingress.createProject('team');
  const ids = Array.from({ length: count }, (_, index) => `dead-${index}`);
  await registerDevices(
    ingress,
    project,
    ids.map((id) => ({ id, platform: 'android' as const, token: `token-${id}` })),
  );
  return { project, ids };
}

/** One delivery run's refusals of `ids` (registered by projectWithDevices), all rejected as dead tokens. */
export const runOf = (project: CreatedProject, notificationId: string, ids: string[]): RefusedDevices => ({
  projectId: project.projectId,
  notificationId,
  at: Date.now(),
  rejected: ids.map((deviceId) => ({
    deviceId,
    pushToken: `token-${deviceId}`,
    reason: 'Unregistered',
    platform: 'android',
    userId: null,
  })),
  failed: [],
});

/** The project's subscribed devices today, as the overview answers it. */
export async function subscribedToday(ingress: TestIngress, project: CreatedProject): Promise<number> {
  const response = await ingress.request('GET', `/v1/projects/${project.projectId}/overview?days=1`, {
    key: project.apiKey,
  });
  expect(response.status).toBe(200);
  return response.body.data.days.at(-1).subscribed;
}

export async function unsubscribedOf(ingress: TestIngress, project: CreatedProject): Promise<string[]> {
  const devices = await ingress.context.models.Device.find(
    { projectId: project.projectId, isSubscribed: false },
    { deviceId: 1 },
  ).lean();
  return devices.map((device) => device.deviceId).sort();
}

export async function loggedUnsubscribed(ingress: TestIngress, notificationId: string): Promise<string[]> {
  const entries = await ingress.context.models.DeliveryLog.find({ notificationId, outcome: 'unsubscribed' }).lean();
  return entries.map((entry) => entry.deviceId).sort();
}
