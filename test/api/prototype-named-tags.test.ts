import { describe, expect, it } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * Tags, data keys and event fields named like members of Object.prototype are ordinary values to Liquid: each renders
 * as its value, and the object holding them prints as any other object does.
 */
const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest', 'journey-steps'], projects: { project: 'team' } });

const prototypeNames = { toString: 't', valueOf: 'v', constructor: 'c', hasOwnProperty: 'h' };
const serverPath = (suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const bodies = (token: string) =>
  harness.sandbox.deliveries(token).map((push: any) => push.payload.notification.body as string);

async function preview(deviceId: string, body: string, data: Record<string, string> = {}) {
  const response = await harness.ingress.request('POST', serverPath('/notifications/preview'), {
    key: project.apiKey,
    body: { deviceId, body, data },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.body as string;
}

describe('keys named like Object.prototype members', () => {
  it('render as their values, and the tags and data holding them print as any others do (they failed the device)', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'proto-tags', platform: 'android', token: 'proto-tags', tags: prototypeNames },
      { id: 'plain-tags', platform: 'android', token: 'plain-tags', tags: { plan: 'gold' } },
    ]);
    const each =
      '{{ device.tags.toString }} {{ device.tags.valueOf }} {{ device.tags.constructor }} {{ device.tags.hasOwnProperty }}';
    expect(await preview('proto-tags', each)).toBe('t v c h');
    const whole = '{{ device.tags }} {{ device.tags | upcase }} {{ data }} {{ data.toString }}';
    const printed = await preview('plain-tags', whole, { plain: 'x' });
    expect(await preview('proto-tags', whole, { toString: 'd' })).toBe(printed.replace(/ $/, ' d'));

    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['proto-tags'],
      body: `${each} | ${whole}`,
      data: { toString: 'd' },
    });
    expect((await waitUntilCompleted(harness.ingress, project, id)).stats).toMatchObject({ sent: 1, failed: 0 });
    expect(bodies('proto-tags')).toEqual([`t v c h | ${printed.replace(/ $/, ' d')}`]);
  });

  it("render in a journey's entry event too", async () => {
    await registerDevices(harness.ingress, project, [{ id: 'proto-event', platform: 'android', token: 'proto-event' }]);
    const journey = await harness.ingress.request('POST', serverPath('/journeys'), {
      key: project.apiKey,
      body: {
        name: 'Prototype names',
        trigger: { event: 'proto-names' },
        body: '{{ entry_event.data.toString }} {{ entry_event.data.valueOf }} {{ entry_event.data }}',
      },
    });
    expect(journey.status, JSON.stringify(journey.body)).toBe(200);
    const reported = await harness.ingress.request('POST', serverPath('/events'), {
      key: project.apiKey,
      body: {
        events: [
          {
            type: 'proto-names',
            subjectType: 'device',
            subjectId: 'proto-event',
            data: { toString: 'e', valueOf: 12 },
          },
        ],
      },
    });
    expect(reported.body.data.error).toEqual([]);
    await eventually(() => expect(bodies('proto-event')).toEqual(['e 12 [object Object]']));
  });
});
