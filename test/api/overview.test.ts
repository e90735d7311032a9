import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import { addToDay } from '../../src/overview/daily-counts.ts';

const {
  harness,
  projects: { project, older },
} = useDeliveryHarness({
  queues: ['send', 'deliver', 'event-ingest'],
  projects: { project: 'team', older: 'team' },
});

const today = startOfUtcDay(new Date());
const daysAgo = (days: number, hours = 12) => new Date(today.getTime() - days * dayMs + hours * 3_600_000);
const day = (days: number) => daysAgo(days).toISOString().slice(0, 10);

interface OverviewDay {
  day: string;
  subscribed: number;
  sent: number;
  clicked: number;
}

async function overview(of: CreatedProject, query = ''): Promise<OverviewDay[]> {
  const response = await harness.ingress.request('GET', `/v1/projects/${of.projectId}/overview${query}`, {
    key: of.apiKey,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.days;
}

const on = (days: OverviewDay[], ago: number) => days.find((entry) => entry.day === day(ago))!;

describe('GET /overview', () => {
  it("answers each of the last 30 days' pushes sent, devices that clicked and devices subscribed, as counted where they happened", async () => {
    const { projectId } = project;
    const server = (method: string, path: string) =>
      harness.ingress.request(method, `/v1/projects/${projectId}${path}`, { key: project.apiKey });
    const click = (deviceId: string, notificationId: string) =>
      harness.ingress.request('POST', `/v1/sdk/projects/${projectId}/devices/${deviceId}/events`, {
        key: project.clientKey,
        body: { type: '@clicked', data: { notificationId } },
      });
    // Four devices subscribe; the gateway unregisters one at the send, and one is erased after it.
    await registerDevices(harness.ingress, project, [
      { id: 'ov-a', platform: 'android', token: 'ov-a', userId: 'olga' },
      { id: 'ov-b', platform: 'ios', token: 'ov-b', userId: 'olga' },
      { id: 'ov-c', platform: 'android', token: 'unregistered-ov-c', userId: 'olga' },
      { id: 'ov-d', platform: 'android', token: 'ov-d', userId: 'olga' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['olga'],
      body: 'Hi',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    // A device clicking twice is one device that clicked; one the push was not sent to is not counted.
    for (const deviceId of ['ov-a', 'ov-a', 'ov-b', 'ov-c']) expect((await click(deviceId, id)).status).toBe(200);
    expect((await server('DELETE', '/devices/ov-d')).status).toBe(200);
    // Three days ago, as the deliver step and the click path count them.
    await addToDay(harness.ingress.context.models, projectId, { sent: 5, clicked: 1 }, daysAgo(3));

    await eventually(async () => {
      const days = await overview(project);
      expect(days).toHaveLength(30);
      expect(days[0]!.day).toBe(day(29));
      expect(days.at(-1)).toEqual({ day: day(0), subscribed: 2, sent: 3, clicked: 2 });
      expect(on(days, 3)).toEqual({ day: day(3), subscribed: 0, sent: 5, clicked: 1 });
      expect(days.reduce((sum, entry) => sum + entry.sent, 0)).toBe(8);
    });
    expect((await server('GET', '/overview?days=0')).status).toBe(400);
  });

  it('answers the devices of a project created before daily counts as subscribed on every day before today', async () => {
    const { projectId } = older;
    const device = (id: string, isSubscribed: boolean) => ({
      _id: deviceKey(projectId, id),
      projectId,
      deviceId: id,
      platform: 'android',
      pushToken: `t-${id}`,
      isSubscribed,
      unsubscribedAt: isSubscribed ? null : daysAgo(50),
      createdAt: daysAgo(60),
      updatedAt: daysAgo(60),
    });
    // Written before the daily counts existed, whose project has no baseline yet: three subscribed, one not.
    const { models } = harness.ingress.context;
    await models.DailyCount.deleteMany({ projectId });
    await models.Device.insertMany(
      [device('old-1', true), device('old-2', true), device('old-3', true), device('old-4', false)],
      { lean: true },
    );
    await registerDevices(harness.ingress, older, [{ id: 'new-1', platform: 'android', token: 'new-1' }]);

    const days = await overview(older, '?days=7');
    expect(days.map((entry) => entry.subscribed)).toEqual([3, 3, 3, 3, 3, 3, 4]);
    // The baseline is read once: a device subscribing later adds to today's change only.
    await registerDevices(harness.ingress, older, [{ id: 'new-2', platform: 'android', token: 'new-2' }]);
    expect((await overview(older, '?days=7')).map((entry) => entry.subscribed)).toEqual([3, 3, 3, 3, 3, 3, 5]);
  });
});
