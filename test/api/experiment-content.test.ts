import { describe, expect, it } from 'vitest';
import { sendNotification, useDeliveryHarness, waitUntilCompleted } from '../support/delivery-harness.ts';
import { testedVariant } from '../../src/experiments/experiment-groups.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver'], projects: { project: 'team' } });

const post = (suffix: string, body: unknown) =>
  harness.ingress.request('POST', `/v1/projects/${project.projectId}${suffix}`, { key: project.apiKey, body });

async function register(id: string, body: Record<string, unknown>): Promise<void> {
  const answer = await harness.ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${id}`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: id, ...body },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const experiment = { metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' };
/** A million steps: past liquidjs's render or memory limit on any machine. */
const costly = 'hi{% for i in (1..1000) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}';

describe("an experiment's variants carry a send's content (CONTRACTS §19)", () => {
  it("delivers a template's content, buttons and languages in one variant and the other's own", async () => {
    const template = await post('/templates', {
      name: 'variant a',
      body: 'A {{ data.name }}',
      buttons: [{ id: 'open', text: 'Open' }],
      localizations: { ko: { body: '가 {{ data.name }}' } },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    const ids = Array.from({ length: 24 }, (_, index) => `vc-${index}`);
    for (const [index, id] of ids.entries()) await register(id, { language: index % 2 === 0 ? 'ko' : 'en' });
    const variants = [
      { name: 'a', templateId: template.body.data.id },
      {
        name: 'b',
        body: 'B {{ data.name }} {{ device.tags.level | default: "new" }}',
        buttons: [{ id: 'go', text: 'Go {{ data.name }}', url: 'https://shop.example/{{ device.id }}' }],
        localizations: { ko: { body: '나 {{ data.name }}' } },
      },
    ];
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ids,
      data: { name: 'Ana' },
      variants,
      experiment,
    });
    const view = await waitUntilCompleted(harness.ingress, project, id);
    expect(view.stats).toMatchObject({ targeted: 24, sent: 24 });
    for (const [index, device] of ids.entries()) {
      const pushes = harness.sandbox.deliveries(device);
      expect(pushes).toHaveLength(1);
      const { notification, data } = (pushes[0]!.payload as any) ?? {};
      const ko = index % 2 === 0;
      if (testedVariant(id, device, 100, 2) === 0) {
        expect(notification.body).toBe(ko ? '가 Ana' : 'A Ana');
        expect(JSON.parse(data.buttons)).toEqual([{ id: 'open', text: 'Open' }]);
      } else {
        expect(notification.body).toBe(ko ? '나 Ana' : 'B Ana new');
        expect(JSON.parse(data.buttons)).toEqual([{ id: 'go', text: 'Go Ana', url: `https://shop.example/${device}` }]);
      }
    }
    expect(view.variants.map((variant: any) => variant.stats.sent).sort()).not.toContain(0);
  });

  it("checks each variant's content as a send's at save: a 400 naming the variant's field, nothing stored", async () => {
    const { Notification } = harness.ingress.context.models;
    const stored = () => Notification.countDocuments({ projectId: project.projectId });
    const before = await stored();
    const base = { targetType: 'device', targetIds: ['nobody'], experiment };
    const ok = { name: 'ok', body: 'fine' };
    const cases: Array<[object[], string[]]> = [
      [[{ name: 'a' }, ok], ['/variants/0/body']],
      [[ok, { name: 'b', body: 'x', buttons: [{ id: 'go', text: '{{ x' }] }], ['/variants/1/buttons/0/text']],
      [
        [ok, { name: 'b', body: 'x', localizations: { ko: { body: '{% if %}' } } }],
        ['/variants/1/localizations/ko/body'],
      ],
      [
        [ok, { name: 'b', body: 'x', buttons: [{ id: 'go', text: 'Go', url: 'javascript:alert(1)' }] }],
        ['/variants/1/buttons/0/url'],
      ],
      [[ok, { name: 'b', body: 'x', localizations: { ko: { body: costly } } }], ['/variants/1/localizations/ko/body']],
      [[{ name: 'a', body: costly }, ok], ['/variants/0/body']],
      [[ok, { name: 'b', body: 'x'.repeat(4090) }], ['/variants/1/body']],
    ];
    for (const [variants, paths] of cases) {
      const answer = await post('/notifications', { ...base, variants });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(paths);
    }
    const missing = await post('/notifications', { ...base, variants: [ok, { name: 'b', templateId: 'gone' }] });
    expect(missing.status).toBe(404);
    expect(await stored()).toBe(before);
  });
});
