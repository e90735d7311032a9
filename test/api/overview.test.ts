import { expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { deviceKey } from '../../src/models/device.ts';
import { dayMs, startOfUtcDay } from '../../src/events/utc-day.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const today = startOfUtcDay(new Date());
const daysAgo = (days: number, hours = 12) => new Date(today.getTime() - days * dayMs + hours * 3_600_000);
const day = (days: number) => daysAgo(days).toISOString().slice(0, 10);

it('answers the last 30 days of subscribed devices, pushes sent and devices that clicked', async () => {
  const { Device, Notification, DeliveryResult, NotificationClick } = ingress.context.models;
  const { projectId } = project;
  const device = (id: string, createdAt: Date, unsubscribedAt: Date | null = null) => ({
    _id: deviceKey(projectId, id),
    projectId,
    deviceId: id,
    platform: 'android',
    pushToken: `t-${id}`,
    isSubscribed: unsubscribedAt === null,
    unsubscribedAt,
    createdAt,
    updatedAt: createdAt,
  });
  // Two devices from before the window; one more 10 days ago, one 3 days ago that was unsubscribed yesterday.
  await Device.insertMany(
    [
      device('old-1', daysAgo(60)),
      device('old-2', daysAgo(45)),
      device('new-1', daysAgo(10)),
      device('new-2', daysAgo(3), daysAgo(1)),
    ],
    { lean: true },
  );
  await Notification.insertMany(
    [
      {
        _id: 'ov-n1',
        projectId,
        status: 'completed',
        targetType: 'device',
        targetIds: ['x'],
        body: 'b',
        createdAt: daysAgo(2),
      },
      {
        _id: 'ov-n2',
        projectId,
        status: 'completed',
        targetType: 'device',
        targetIds: ['x'],
        body: 'b',
        createdAt: daysAgo(40),
      },
    ],
    { lean: true },
  );
  await DeliveryResult.insertMany([
    { _id: 'ov-n1-0', notificationId: 'ov-n1', sent: 3 },
    { _id: 'ov-n2-0', notificationId: 'ov-n2', sent: 5 },
  ]);
  await NotificationClick.insertMany([
    { _id: 'ov-n1:new-1', notificationId: 'ov-n1', deviceId: 'new-1', clickedAt: new Date() },
  ]);

  const response = await ingress.request('GET', `/v1/projects/${projectId}/overview`, { key: project.apiKey });
  expect(response.status).toBe(200);
  const days: Array<{ day: string; subscribed: number; sent: number; clicked: number }> = response.body.data.days;
  expect(days).toHaveLength(30);
  expect(days[0]!.day).toBe(day(29));
  expect(days.at(-1)!.day).toBe(day(0));
  const on = (ago: number) => days.find((entry) => entry.day === day(ago))!;
  expect(on(29).subscribed).toBe(2);
  expect(on(10).subscribed).toBe(3);
  expect(on(3).subscribed).toBe(4);
  expect(on(2)).toEqual({ day: day(2), subscribed: 4, sent: 3, clicked: 1 });
  expect(on(1).subscribed).toBe(3);
  expect(on(0).subscribed).toBe(3);
  expect(days.reduce((sum, entry) => sum + entry.sent, 0)).toBe(3);

  const bad = await ingress.request('GET', `/v1/projects/${projectId}/overview?days=0`, { key: project.apiKey });
  expect(bad.status).toBe(400);
});
