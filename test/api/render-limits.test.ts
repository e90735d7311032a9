import { describe, expect, it } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

/**
 * Issue 46's fifth finding: content past liquidjs's own limits (its 50 ms render limit, its memory limit) failed every
 * device after about 107 ms each and was never refused at save, where content past the pool's time bound is. Such a
 * render now counts as the pool's stop does: refused at save, and a send stops rendering after a few devices.
 */
const {
  harness,
  projects: { project },
} = useDeliveryHarness({ projects: { project: 'team' } });

/** A million steps: past liquidjs's render or memory limit on any machine, with no range past the static limits. */
const nested = (bound: string) => `hi{% for i in (1..${bound}) %}{% for j in (1..${bound}) %}x{% endfor %}{% endfor %}`;
/** The finding's send: 50 localizations, each of whose bodies renders past the limits. */
const languages = Array.from(
  { length: 50 },
  (_, index) => `en-${'AB'[Math.floor(index / 26)]}${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[index % 26]}`,
);

const post = (suffix: string, body: unknown) =>
  harness.ingress.request('POST', `/v1/projects/${project.projectId}${suffix}`, { key: project.apiKey, body });

const pathsOf = (answer: { status: number; body: any }) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error.code).toBe('invalid_request');
  for (const { message } of answer.body.error.details)
    expect(message).toMatch(/could not be rendered: .*limit exceeded/);
  return answer.body.error.details.map((detail: { path: string }) => detail.path);
};

describe('content past the engine limits', () => {
  it('refuses a send at save naming the first few fields past them, not rendering the rest', async () => {
    const localizations = Object.fromEntries(languages.map((language) => [language, { body: nested('1000') }]));
    const send = { targetType: 'device', targetIds: ['nobody'], body: 'fine' };
    expect(pathsOf(await post('/notifications', { ...send, localizations }))).toEqual(
      languages.slice(0, 3).map((language) => `/localizations/${language}/body`),
    );
    const buttons = [{ id: 'go', text: 'Go', url: `https://shop.example/${nested('1000')}` }];
    expect(pathsOf(await post('/notifications', { ...send, buttons }))).toEqual(['/buttons/0/url']);
    expect(await harness.ingress.context.models.Notification.countDocuments({ projectId: project.projectId })).toBe(0);
  });

  it('refuses a template, a journey and an in-app message at save, storing none', async () => {
    expect(pathsOf(await post('/templates', { name: 'costly', body: nested('1000') }))).toEqual(['/body']);
    const journey = { name: 'costly', trigger: { event: 'probe' }, body: 'ok', title: nested('1000') };
    expect(pathsOf(await post('/journeys', journey))).toEqual(['/title']);
    const inApp = { name: 'costly', status: 'active', layout: 'banner', buttons: [], trigger: { event: 'probe' } };
    expect(pathsOf(await post('/in-app-messages', { ...inApp, frequency: 'always', body: nested('1000') }))).toEqual([
      '/body',
    ]);
    const { Template, Journey, InAppMessage } = harness.ingress.context.models;
    for (const model of [Template, Journey, InAppMessage] as const)
      expect(await (model as typeof Template).countDocuments({ projectId: project.projectId })).toBe(0);
  });

  it('stops a send after 3 devices whose render passed them, failing the rest without a render', async () => {
    // Each device its own bound, so that no device takes another's rendering.
    const devices = Array.from({ length: 10 }, (_, index) => ({
      id: `d${index}`,
      platform: 'android' as const,
      token: `token-${index}`,
      tags: { n: 1000 - index },
    }));
    await registerDevices(harness.ingress, project, devices);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: devices.map((device) => device.id),
      body: nested('device.tags.n'),
    });
    const { stats } = await waitUntilCompleted(harness.ingress, project, id, 30_000);
    expect(stats).toMatchObject({ targeted: 10, sent: 0, failed: 10 });
    const log = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/notifications/${id}/deliveries?limit=100`,
      { key: project.apiKey },
    );
    const reasons: string[] = log.body.data.map((entry: { reason: string }) => entry.reason);
    expect(reasons.filter((reason) => /^(template render|memory alloc) limit exceeded/.test(reason))).toHaveLength(3);
    expect(reasons.filter((reason) => /^render_timeout: not rendered/.test(reason))).toHaveLength(7);
  });
});
