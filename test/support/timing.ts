import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import type { TestIngress } from './ingress.ts';

/**
 * Android devices `${prefix}0..n-1` of one user, inserted as registered, with the token of the same name; `timezones`
 * deals out zones in turn, so that neighbouring devices differ.
 */
export async function insertUserDevices(
  ingress: TestIngress,
  project: CreatedProject,
  prefix: string,
  count: number,
  fields: {
    userId?: string;
    /** Each device the next of these, in turn, in place of one userId. */
    userIds?: string[];
    tags?: Record<string, string>;
    timezone?: string | null;
    timezones?: string[];
  } = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => `${prefix}${index}`);
  await ingress.context.models.Device.insertMany(
    ids.map((deviceId, index) => ({
      _id: deviceKey(project.projectId, deviceId),
      projectId: project.projectId,
      deviceId,
      platform: 'android',
      pushToken: deviceId,
      userId: fields.userIds?.[index % fields.userIds.length] ?? fields.userId ?? null,
      tags: fields.tags ?? {},
      timezone: fields.timezones?.[index % fields.timezones.length] ?? fields.timezone ?? null,
    })),
  );
  return ids;
}

export async function patchSettings(ingress: TestIngress, project: CreatedProject, settings: unknown) {
  const answer = await ingress.request('PATCH', `/v1/projects/${project.projectId}/settings`, {
    key: project.apiKey,
    body: settings,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** "HH:MM" of this instant in UTC. */
export const utcClock = (at: number) => new Date(at).toISOString().slice(11, 16);
