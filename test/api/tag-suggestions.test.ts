import { expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { deviceKey } from '../../src/models/device.ts';
import { tagSampleSize } from '../../src/devices/tag-suggestions.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ projects: { project: 'team', other: 'team' } });

const insertDevices = (projectId: string, count: number, tagsOf: (index: number) => object, start: number) =>
  ingress.context.models.Device.insertMany(
    Array.from({ length: count }, (_, index) => ({
      _id: deviceKey(projectId, `dev-${start + index}`),
      projectId,
      deviceId: `dev-${start + index}`,
      platform: 'android',
      pushToken: `t-${projectId}-${start + index}`,
      tags: tagsOf(index),
      createdAt: new Date(Date.now() - 3_600_000 + (start + index) * 10),
      updatedAt: new Date(),
    })),
    { lean: true },
  );

it("suggests the tag keys of the project's newest devices, those carried by most first, with their frequent short values", async () => {
  // Older than the sample: a key only they carry is not suggested.
  await insertDevices(project.projectId, 20, () => ({ legacy: 'yes' }), 0);
  await insertDevices(
    project.projectId,
    tagSampleSize,
    (index) => ({
      plan: index % 5 === 0 ? 'pro' : 'free',
      ...(index % 2 === 0 && { level: index % 3 }),
      ...(index === 7 && { note: 'x'.repeat(65) }),
    }),
    100,
  );
  await insertDevices(other.projectId, 3, () => ({ secret_key: 'other' }), 0);
  const answer = await ingress.request('GET', `/v1/projects/${project.projectId}/tag-suggestions`, {
    key: project.apiKey,
  });
  expect(answer.status).toBe(200);
  expect(answer.body.data).toEqual([
    { key: 'plan', devices: tagSampleSize, values: ['free', 'pro'] },
    { key: 'level', devices: tagSampleSize / 2, values: expect.arrayContaining([0, 1, 2]) },
    { key: 'note', devices: 1, values: [] },
  ]);
  const none = await ingress.request('GET', `/v1/projects/${project.projectId}/tag-suggestions`, {
    key: other.apiKey,
  });
  expect(none.status).toBe(403);
});
