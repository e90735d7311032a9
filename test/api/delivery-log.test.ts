import { describe, expect, it } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project, other },
} = useDeliveryHarness({ projects: { project: 'team', other: 'team' } });

const deliveries = (owner: typeof project, notificationId: string, query = '') =>
  harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications/${notificationId}/deliveries${query}`, {
    key: owner.apiKey,
  });

describe('GET /notifications/{id}/deliveries: the delivery log', () => {
  it('lists each device once with its outcome and reason, filters by outcome and pages by after', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'a-sent', platform: 'android', token: 'tok-a' },
      { id: 'b-failed', platform: 'android', token: 'badpayload-b' },
      { id: 'c-gone', platform: 'ios', token: 'unregistered-c' },
      { id: 'd-invalid', platform: 'android', token: 'invalid-d' },
      { id: 'e-sent', platform: 'ios', token: 'tok-e' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['a-sent', 'b-failed', 'c-gone', 'd-invalid', 'e-sent'],
      body: 'Hello',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    const all = await deliveries(project, id);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { deviceId: 'a-sent', platform: 'android', outcome: 'sent', at: expect.any(String) },
      {
        deviceId: 'b-failed',
        platform: 'android',
        outcome: 'failed',
        reason: expect.any(String),
        at: expect.any(String),
      },
      {
        deviceId: 'c-gone',
        platform: 'ios',
        outcome: 'unsubscribed',
        reason: expect.stringContaining('Unregistered'),
        at: expect.any(String),
      },
      {
        deviceId: 'd-invalid',
        platform: 'android',
        outcome: 'unsubscribed',
        reason: expect.any(String),
        at: expect.any(String),
      },
      { deviceId: 'e-sent', platform: 'ios', outcome: 'sent', at: expect.any(String) },
    ]);

    const sent = await deliveries(project, id, '?outcome=sent');
    expect(sent.body.data.map((entry: { deviceId: string }) => entry.deviceId)).toEqual(['a-sent', 'e-sent']);

    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await deliveries(project, id, `?limit=2${after ? `&after=${after}` : ''}`);
      const ids = page.body.data.map((entry: { deviceId: string }) => entry.deviceId);
      pages.push(ids);
      after = ids.at(-1);
    } while (pages.at(-1)!.length === 2);
    expect(pages).toEqual([['a-sent', 'b-failed'], ['c-gone', 'd-invalid'], ['e-sent']]);

    const summary = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/notifications/${id}/delivery-summary`,
      { key: project.apiKey },
    );
    const none = { capped: 0, expired: 0 };
    expect(summary.body.data.byPlatform).toEqual([
      { platform: 'android', sent: 1, failed: 1, unsubscribed: 1, ...none },
      { platform: 'ios', sent: 1, failed: 0, unsubscribed: 1, ...none },
    ]);
    expect(summary.body.data.reasons).toHaveLength(3);
    expect(summary.body.data.reasons.map((reason: { outcome: string }) => reason.outcome).sort()).toEqual([
      'failed',
      'unsubscribed',
      'unsubscribed',
    ]);
  });

  it("answers 404 for another project's notification and 400 for an unknown outcome", async () => {
    await registerDevices(harness.ingress, project, [{ id: 'x', platform: 'android', token: 'tok-x' }]);
    const id = await sendNotification(harness.ingress, project, { targetType: 'device', targetIds: ['x'], body: 'Hi' });
    await waitUntilCompleted(harness.ingress, project, id);
    const foreign = await deliveries(other, id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const bad = await deliveries(project, id, '?outcome=lost&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
  });
});
