import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { webhookTimeoutMs } from '../../src/webhooks/post-webhook.ts';

const {
  ingress,
  projects: { hung, other },
} = useIngress({ workers: ['webhook'], projects: { hung: 'team', other: 'team' } });

/** A receiver that takes every call and never answers it. */
const hanging: IncomingMessage[] = [];
const hangingServer = createServer((request) => hanging.push(request));
let receiver: WebhookReceiver;
beforeAll(async () => {
  await new Promise<void>((resolve) => hangingServer.listen(0, '127.0.0.1', resolve));
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  hangingServer.closeAllConnections();
  await new Promise((resolve) => hangingServer.close(resolve));
  await receiver.close();
});

async function subscribe(project: CreatedProject, url: string) {
  const created = await ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url, events: ['in_app.displayed'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const device = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/reporter`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: 'reporter-token' },
  });
  expect(device.status).toBe(200);
}

/** A client-key @iam_displayed report, as the SDK sends one each time it shows a message. */
async function reportDisplayed(project: CreatedProject, inAppMessageId: string) {
  const response = await ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/reporter/events`, {
    key: project.clientKey,
    body: { type: '@iam_displayed', data: { inAppMessageId } },
  });
  expect(response.status).toBe(200);
}

describe('one hung webhook endpoint', () => {
  it("holds a small share of the webhook worker: another project's webhooks still arrive well before a hung call times out", async () => {
    const port = (hangingServer.address() as AddressInfo).port;
    await subscribe(hung, `http://127.0.0.1:${port}/hooks`);
    await subscribe(other, receiver.url);
    for (let start = 0; start < 100; start += 10)
      await Promise.all(Array.from({ length: 10 }, (_, index) => reportDisplayed(hung, `m${start + index}`)));
    // The hung endpoint has calls in flight, which its receiver never answers.
    await eventually(() => expect(hanging.length).toBeGreaterThan(0));

    const latencies: number[] = [];
    for (let index = 0; index < 5; index++) {
      const reportedAt = Date.now();
      await reportDisplayed(other, `other-${index}`);
      const call = await eventually(
        () => {
          const found = receiver.received.find((received) => received.event.data.inAppMessageId === `other-${index}`);
          expect(found).toBeDefined();
          return found!;
        },
        30_000,
        5,
      );
      latencies.push(call.receivedAt - reportedAt);
    }
    // A call held back behind the hung endpoint's would wait for one of them to time out: the first is reported as they
    // start. Half that timeout leaves the pipeline a loaded machine's time (1-4 s measured at load average 22).
    expect(Math.max(...latencies), `latencies ${latencies.join(', ')} ms`).toBeLessThan(webhookTimeoutMs / 2);
    // The hung endpoint's own calls are bounded too: never more than its share at once.
    expect(hanging.length).toBeLessThanOrEqual(16);
  });
});
