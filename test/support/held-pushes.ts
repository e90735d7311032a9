import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { FaultHarness } from './fault-harness.ts';
import { eventually } from './eventually.ts';
import { insertUserDevices } from './timing.ts';

const minuteMs = 60_000;

/** A project with `count` devices in a segment of them all (UTC: the project's default zone). */
export async function segmentAudience(
  harness: FaultHarness,
  count: number,
): Promise<{ project: CreatedProject; tokens: string[]; segmentId: string }> {
  const project = await harness.ingress.createProject('team');
  const tokens = await insertUserDevices(harness.ingress, project, `${project.projectId}-`, count, {
    tags: { group: 'all' },
  });
  const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
    key: project.apiKey,
    body: { name: 'all', match: 'all', conditions: [{ tag: 'group', op: 'eq', value: 'all' }] },
  });
  return { project, tokens, segmentId: segment.body.data.id };
}

/** The start of a minute at least 20 s ahead: time to see the pushes held before they are released. */
export const releaseMinute = () => Math.ceil((Date.now() + 20_000) / minuteMs) * minuteMs;

/** Resolves once the notification's devices all wait in held parts (delayed deliver jobs). */
export function allHeld(harness: FaultHarness, notificationId: string, devices: number): Promise<void> {
  return eventually(async () => {
    const held = (await harness.ingress.context.queues.deliver.getDelayed())
      .filter((job) => job.data.notificationId === notificationId && job.data.heldUntil !== undefined)
      .reduce((sum, job) => sum + job.data.devices.length, 0);
    expect(held).toBe(devices);
  }, 30_000);
}

/** Every device's push arrived at or after `at`. */
export function expectReceivedFrom(harness: FaultHarness, tokens: string[], at: number): void {
  const early = tokens.filter((token) => Date.parse(harness.sandbox.deliveries(token)[0]!.receivedAt) < at);
  expect(early).toEqual([]);
}
