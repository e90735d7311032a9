import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../support/test-config.ts';
import { useIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { postWebhook, webhookAgents } from '../../src/webhooks/post-webhook.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import { seal } from '../../src/credentials/cipher.ts';
import { newWebhookSecret } from '../../src/webhooks/webhook-secret.ts';

const config = testConfig({
  webhooks: { allowPrivate: false, retryBaseMs: 50, retryWindowMs: 3_600_000, slotLeaseMs: 60_000 },
});
const {
  ingress,
  projects: { project },
} = useIngress({ config, workers: ['webhook'], projects: { project: 'team' } });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const port = () => new URL(receiver.url).port;

describe('webhook URLs without WEBHOOKS_ALLOW_PRIVATE', () => {
  it('refuses, when saved, URLs that are not https to a public host', async () => {
    const urls = [
      `http://127.0.0.1:${port()}/hooks`,
      'https://10.0.0.1/',
      'https://[::1]/',
      `https://localhost:${port()}/hooks`,
      'https://2130706433/',
    ];
    for (const url of urls) {
      const response = await ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
        key: project.apiKey,
        body: { url, events: ['message.failed'] },
      });
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.details).toEqual([{ path: '/url', message: expect.any(String) }]);
    }
    const listed = await ingress.request('GET', `/v1/projects/${project.projectId}/webhooks`, { key: project.apiKey });
    expect(listed.body.data).toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  it('never calls a private address saved while it was allowed: the URL is checked again at each call', async () => {
    const endpointId = 'saved-while-allowed';
    await ingress.context.models.WebhookEndpoint.create({
      _id: endpointId,
      projectId: project.projectId,
      url: `https://127.0.0.1:${port()}/hooks`,
      events: ['message.failed'],
      enabled: true,
      secret: seal(newWebhookSecret(), config.credentialsKey),
    });
    await publishWebhookEvents(ingress.context, project.projectId, [messageFailed('n1', 'd1', 'refused', new Date())]);
    const attempts = await eventually(async () => {
      const response = await ingress.request(
        'GET',
        `/v1/projects/${project.projectId}/webhooks/${endpointId}/attempts`,
        { key: project.apiKey },
      );
      expect(response.body.data.length).toBeGreaterThanOrEqual(2);
      return response.body.data;
    });
    expect(attempts[0]).toMatchObject({ status: null, error: 'refused' });
    expect(receiver.received).toEqual([]);
  });

  it('checks the addresses a name resolves to when connecting, since DNS answers change', async () => {
    const answer = await postWebhook(webhookAgents(false), {
      url: `https://localhost:${port()}/hooks`,
      headers: {},
      body: '{}',
    });
    expect(answer).toMatchObject({ status: null, failure: 'refused' });
    expect(receiver.received).toEqual([]);
  });
});
