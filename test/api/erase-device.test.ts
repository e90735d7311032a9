import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { flushAllCounts } from '../../src/events/flush-counts.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest'], projects: { project: 'team' } });

const server = (method: string, path: string, body?: unknown) =>
  harness.ingress.request(method, `/v1/projects/${project.projectId}${path}`, { key: project.apiKey, body });
const trackFrom = (deviceId: string, type: string, data?: object) =>
  harness.ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}/events`, {
    key: project.clientKey,
    body: { type, data },
  });
const eventsOf = async (query: string) =>
  (await server('GET', `/events?${query}`)).body.data as Array<{ type: string }>;

describe('DELETE /devices/{id}: erasing a device', () => {
  it('deletes the device, its history, its clicks, its events and their counts, and nothing of anyone else', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'erased', platform: 'android', token: 'erase-1', userId: 'erin' },
      { id: 'kept', platform: 'android', token: 'erase-2', userId: 'erin' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['erin'],
      body: 'Hi',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    // Sent to the kept device only: the erased one's click on it is accepted and not counted (CONTRACTS §6).
    const other = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['kept'],
      body: 'Yo',
    });
    await waitUntilCompleted(harness.ingress, project, other);
    for (const deviceId of ['erased', 'kept']) {
      expect((await trackFrom(deviceId, '@clicked', { notificationId: id })).status).toBe(200);
      expect((await trackFrom(deviceId, 'viewed')).status).toBe(200);
    }
    expect((await trackFrom('erased', '@clicked', { notificationId: other })).status).toBe(200);
    expect((await readNotification(harness.ingress, project, other)).stats.clicked).toBe(0);
    await server('POST', '/events', { events: [{ type: 'purchase', subjectType: 'user', subjectId: 'erin' }] });
    await eventually(async () => expect((await readNotification(harness.ingress, project, id)).stats.clicked).toBe(2));
    await eventually(async () => expect(await eventsOf('deviceId=erased')).toHaveLength(5));
    await eventually(async () => expect(await eventsOf('deviceId=kept')).toHaveLength(4));
    const { models } = harness.ingress.context;
    const counters = (deviceId: string) =>
      models.EventCounter.countDocuments({ projectId: project.projectId, subjectType: 'device', subjectId: deviceId });

    const erased = await server('DELETE', '/devices/erased');
    expect(erased.status).toBe(200);
    expect(erased.body.data).toEqual({ id: 'erased', deleted: true });

    expect((await server('GET', '/devices/erased')).status).toBe(404);
    expect((await server('GET', '/devices/erased/notification-history')).status).toBe(404);
    expect(await models.History.countDocuments({ projectId: project.projectId, deviceId: 'erased' })).toBe(0);
    expect(await models.Event.countDocuments({ projectId: project.projectId, subjectId: 'erased' })).toBe(0);
    // Its counts were still gathered in Redis: the next flush brings none of them back.
    await flushAllCounts(harness.ingress.context, project.projectId);
    expect(await counters('erased')).toBe(0);
    expect(await counters('kept')).toBeGreaterThan(0);
    expect(await readNotification(harness.ingress, project, id)).toMatchObject({
      status: 'completed',
      stats: { targeted: 2, sent: 2, clicked: 1 },
    });
    expect((await readNotification(harness.ingress, project, other)).stats.clicked).toBe(0);
    // The other device and the user's own events are not the erased device's.
    expect((await server('GET', '/devices/kept/notification-history')).body.data).toHaveLength(2);
    expect((await eventsOf('deviceId=kept')).map((event) => event.type).sort()).toEqual([
      '@clicked',
      '@first_session',
      'purchase',
      'viewed',
    ]);
    expect((await eventsOf('type=purchase')).length).toBe(1);

    expect((await server('DELETE', '/devices/erased')).status).toBe(404);
  });
});
