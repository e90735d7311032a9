import { expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { deviceKey } from '../../src/models/device.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

it('browses the devices newest first, by platform and subscription state, page after page', async () => {
  const { projectId } = project;
  const start = Date.now() - 60_000;
  await ingress.context.models.Device.insertMany(
    Array.from({ length: 7 }, (_, index) => ({
      _id: deviceKey(projectId, `dev-${index}`),
      projectId,
      deviceId: `dev-${index}`,
      platform: index % 2 === 0 ? 'web' : 'ios',
      pushToken: `t-${index}`,
      isSubscribed: index !== 4,
      // Two devices of one millisecond: the page boundary between them skips neither.
      createdAt: new Date(start + Math.min(index, 5) * 1000),
      updatedAt: new Date(),
    })),
    { lean: true },
  );
  const list = async (query: string) => {
    const response = await ingress.request('GET', `/v1/projects/${projectId}/devices?order=newest&${query}`, {
      key: project.apiKey,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.map((device: { id: string }) => device.id);
  };
  expect(await list('limit=50')).toEqual(['dev-6', 'dev-5', 'dev-4', 'dev-3', 'dev-2', 'dev-1', 'dev-0']);
  expect(await list('platform=web&subscribed=true')).toEqual(['dev-6', 'dev-2', 'dev-0']);
  expect(await list('subscribed=false')).toEqual(['dev-4']);
  const pages: string[][] = [];
  let before: string | undefined;
  do {
    pages.push(await list(`limit=3${before ? `&before=${before}` : ''}`));
    before = pages.at(-1)!.at(-1);
  } while (pages.at(-1)!.length === 3);
  expect(pages.flat()).toEqual(['dev-6', 'dev-5', 'dev-4', 'dev-3', 'dev-2', 'dev-1', 'dev-0']);
  const bad = await ingress.request('GET', `/v1/projects/${projectId}/devices?order=newest&platform=fax`, {
    key: project.apiKey,
  });
  expect(bad.status).toBe(400);
});
