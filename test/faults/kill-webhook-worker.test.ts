import { afterAll, beforeAll, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';
import { processEnv, startWorkerProcess, type NodeProcess } from '../support/child-processes.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import { maxEventsPerWebhookJob } from '../../src/queues/webhook.ts';

const events = 2000;
const concurrency = 16;
const {
  config,
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

let receiver: WebhookReceiver;
const workers: NodeProcess[] = [];
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop(5_000)));
  await receiver.close();
});

const startWorker = async () => {
  const worker = await startWorkerProcess(
    'webhook',
    processEnv(config, {
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_CONCURRENCY: String(concurrency),
      // The killed worker's slots of the endpoint are freed as soon as its jobs are found stalled.
      WEBHOOK_SLOT_LEASE_MS: '5000',
      WORKER_LOCK_DURATION_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    }),
  );
  workers.push(worker);
  return worker;
};

/*
 * At least once: the calls a job had made before the kill, the job not completed yet, are made again by the recovered
 * job under the same webhook-ids (so the receiver can drop them); none is lost.
 */
it('kill -9 of the webhook worker mid-stream: a new worker delivers every event at least once, repeats bounded', async () => {
  const created = await ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: receiver.url, events: ['message.failed'] },
  });
  expect(created.status).toBe(200);
  const first = await startWorker();
  for (let start = 0; start < events; start += 500)
    await publishWebhookEvents(
      ingress.context,
      project.projectId,
      Array.from({ length: 500 }, (_, index) => messageFailed('n1', `d${start + index}`, 'refused', new Date())),
    );
  await eventually(() => expect(receiver.received.length).toBeGreaterThan(events / 4), 60_000);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(receiver.received.length).toBeLessThan(events);
  await startWorker();

  const devices = () => new Set(receiver.received.map((call) => call.event.data.deviceId));
  await eventually(() => expect(devices().size).toBe(events), 90_000, 200);
  const ids = receiver.received.map((call) => call.headers['webhook-id']);
  const repeated = ids.length - new Set(ids).size;
  // At most the events of the jobs in flight at the kill, and never all of them.
  expect(repeated).toBeLessThanOrEqual(concurrency * maxEventsPerWebhookJob);
  // A repeat is the same event under the same webhook-id.
  const byId = new Map<unknown, string>();
  for (const call of receiver.received) {
    const seen = byId.get(call.headers['webhook-id']);
    if (seen !== undefined) expect(call.event.data.deviceId).toBe(seen);
    byId.set(call.headers['webhook-id'], call.event.data.deviceId);
  }
}, 150_000);
