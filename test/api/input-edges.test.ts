import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';

/** The input edges of the second hardening round: the same rules everywhere, the bounds, and 404s that teach. */
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const api = (method: string, path: string, body?: unknown, owner: CreatedProject = project) =>
  ingress.request(method, `/v1/projects/${owner.projectId}${path}`, { key: owner.apiKey, body });

const inApp = {
  name: 'nudge',
  status: 'paused',
  layout: 'modal',
  body: 'Your cart is waiting',
  trigger: { on: 'session_start' },
  frequency: 'always',
};

const zeroWidth = '\u200b\u200b\u200b';

async function device(owner: CreatedProject, id: string) {
  const response = await ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/${id}`, {
    key: owner.clientKey,
    body: { platform: 'android', pushToken: `${id}-token` },
  });
  expect(response.status).toBe(200);
}

const send = (fields: Record<string, unknown>) =>
  api('POST', '/notifications', { targetType: 'userId', targetIds: ['u1'], body: 'hi', ...fields });

const paths = (response: { body: any }) => response.body.error.details.map((detail: { path: string }) => detail.path);

describe('one URL rule for every link a message carries', () => {
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'VBScript:msgbox(1)',
  ])("refuses %j as a push's url, imageUrl, button url and localized url", async (url) => {
    const response = await send({
      url,
      imageUrl: url,
      buttons: [{ id: 'b', text: 'Go', url }],
      localizations: { ko: { url } },
    });
    expect(response.status).toBe(400);
    expect(paths(response).sort()).toEqual(['/buttons/0/url', '/imageUrl', '/localizations/ko/url', '/url']);
    expect(response.body.error.details[0].message).toMatch(/javascript:, data: and vbscript: URLs are refused/);
  });

  it('refuses a template carrying one, and takes an app link and an upper-case HTTPS:// link', async () => {
    const template = await api('POST', '/templates', { name: 't', body: 'b', url: 'javascript:void(0)' });
    expect(template.status).toBe(400);
    expect(paths(template)).toEqual(['/url']);
    expect((await send({ url: 'myapp://product/1', imageUrl: 'HTTPS://cdn.example/a.png' })).status).toBe(200);
    const message = await api('POST', '/in-app-messages', { ...inApp, imageUrl: 'HTTPS://cdn.example/a.png' });
    expect(message.status, JSON.stringify(message.body)).toBe(200);
    const webhook = await api('POST', '/webhooks', { url: 'HTTPS://hooks.example/in', events: ['message.failed'] });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
  });
});

describe('text', () => {
  it("refuses NUL in an in-app message's title, body, name and button text and url", async () => {
    const response = await api('POST', '/in-app-messages', {
      ...inApp,
      name: 'a\u0000b',
      title: 'a\u0000b',
      body: 'a\u0000b',
      buttons: [{ id: 'b', text: 'a\u0000b', action: 'url', url: 'https://x.example/\u0000' }],
    });
    expect(response.status).toBe(400);
    expect(paths(response).sort()).toEqual(['/body', '/buttons/0/text', '/buttons/0/url', '/name', '/title']);
  });

  it('refuses a body of zero-width spaces, in an in-app message and in a send', async () => {
    const message = await api('POST', '/in-app-messages', { ...inApp, body: zeroWidth });
    expect(message.status).toBe(400);
    expect(message.body.error.details).toEqual([{ path: '/body', message: expect.stringMatching(/visible text/) }]);
    const push = await send({ body: zeroWidth });
    expect(push.status).toBe(400);
    expect(push.body.error.details).toEqual([{ path: '/body', message: expect.stringMatching(/visible text/) }]);
  });

  it('names the rule an in-app body of 4,097 characters breaks: its length', async () => {
    const response = await api('POST', '/in-app-messages', { ...inApp, body: 'x'.repeat(4097) });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: '/body', message: expect.stringMatching(/at most 4096/) }]);
  });

  it('refuses two localizations whose language keys differ only in case', async () => {
    const response = await send({ localizations: { 'en-US': { body: 'a' }, 'EN-us': { body: 'b' } } });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: '/localizations/EN-us', message: expect.stringMatching(/same language as "en-US"/) },
    ]);
  });
});

describe('bounds', () => {
  it('takes at most 10 webhook endpoints per project, also when thirty are created at once', async () => {
    const owner = await ingress.createProject('team');
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api('POST', '/webhooks', { url: `https://h${index}.example/`, events: ['message.failed'] }, owner),
      ),
    );
    expect(created.map((response) => response.status).sort()).toEqual([...Array(10).fill(200), ...Array(20).fill(400)]);
    const refused = created.find((response) => response.status === 400)!;
    expect(refused.body.error.message).toMatch(/at most 10 webhook endpoints/);
    expect((await api('GET', '/webhooks?limit=100', undefined, owner)).body.data).toHaveLength(10);
  });

  it("waits for another writer that holds the project's webhook bound for seconds, rather than answering 503", async () => {
    const owner = await ingress.createProject('team');
    const { redis, config } = ingress.context;
    const bound = redisKeys.projectLimit(config.queuePrefix, owner.projectId, 'webhooks');
    // Another process counting and writing on a loaded store, holding the bound for seconds.
    await redis.set(bound, 'another-writer', 'PX', 60_000);
    const heldMs = 6_000;
    const released = new Promise((resolve) => setTimeout(resolve, heldMs)).then(() => redis.del(bound));
    const startedAt = Date.now();
    const created = await api('POST', '/webhooks', { url: 'https://held.example/', events: ['message.failed'] }, owner);
    await released;
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(heldMs);
  });

  it('keeps at most 100 in-app messages active, and answers a device at most 20, the highest priority first', async () => {
    const owner = await ingress.createProject('team');
    const createActive = (priority: number) =>
      api('POST', '/in-app-messages', { ...inApp, status: 'active', name: `m${priority}`, priority }, owner);
    for (let start = 0; start < 90; start += 10)
      for (const created of await Promise.all(Array.from({ length: 10 }, (_, offset) => createActive(start + offset))))
        expect(created.status).toBe(200);
    // Twenty at once for the last ten places: ten are taken, the other ten refused.
    const racing = await Promise.all(Array.from({ length: 20 }, (_, offset) => createActive(90 + offset)));
    expect(racing.filter((response) => response.status === 200)).toHaveLength(10);
    expect(racing.filter((response) => response.status === 400)).toHaveLength(10);
    const over = await api('POST', '/in-app-messages', { ...inApp, status: 'active', name: 'one too many' }, owner);
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: '/status', message: expect.stringMatching(/100 active/) }]);
    const paused = await api('POST', '/in-app-messages', { ...inApp, name: 'paused' }, owner);
    expect(paused.status).toBe(200);
    const activated = await api(
      'PUT',
      `/in-app-messages/${paused.body.data.id}`,
      { ...inApp, name: 'paused', status: 'active' },
      owner,
    );
    expect(activated.status).toBe(400);

    await device(owner, 'phone');
    const answer = await ingress.request('GET', `/v1/sdk/projects/${owner.projectId}/devices/phone/in-app-messages`, {
      key: owner.clientKey,
    });
    const activePriorities = [
      ...Array.from({ length: 90 }, (_, index) => index),
      ...racing.filter((response) => response.status === 200).map((response) => response.body.data.priority as number),
    ];
    expect(answer.body.data.map((message: { priority: number }) => message.priority)).toEqual(
      activePriorities.sort((a, b) => b - a).slice(0, 20),
    );
  });
});

describe('404s that teach', () => {
  it('says what targetIds and templateId take, and where to find them', async () => {
    const segment = await api('POST', '/notifications', { targetType: 'segment', targetIds: ['shoppers'], body: 'hi' });
    expect(segment.status).toBe(404);
    expect(segment.body.error.message).toMatch(
      /No segment "shoppers" in this project\. .*segment ids \(not names\).*GET \.\.\.\/segments/,
    );
    const template = await send({ templateId: 'welcome' });
    expect(template.status).toBe(404);
    expect(template.body.error.message).toMatch(
      /No template "welcome" in this project\. templateId takes a template's id.*GET \.\.\.\/templates/,
    );
    const phone = await api('POST', '/notifications', { targetType: 'device', targetIds: ['nope'], body: 'hi' });
    expect(phone.status).toBe(404);
    expect(phone.body.error.message).toMatch(
      /device ids the SDK registered; GET \/v1\/projects\/\{PROJECT_ID\}\/devices/,
    );
  });
});
