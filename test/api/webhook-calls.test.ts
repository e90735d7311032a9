import mongoose from 'mongoose';
import type { Job } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createModels } from '../../src/models/index.ts';
import { webhookProcessor } from '../../src/webhooks/webhook-processor.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import type { WebhookJobData } from '../../src/queues/webhook.ts';

// No workers: the test runs the webhook jobs itself, over a connection whose commands it sees.
const { ingress } = useIngress();

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A fresh project with an endpoint for message.failed on a loopback receiver, and `count` events queued for it. */
async function queuedEvents(count: number) {
  const project = await ingress.createProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: receiver.url, events: ['message.failed'] },
  });
  const endpointId: string = created.body.data.id;
  const events = Array.from({ length: count }, (_, index) => messageFailed('n1', `d${index}`, 'refused', new Date()));
  await publishWebhookEvents(ingress.context, project.projectId, events);
  const jobs = (await ingress.context.queues.webhook.getJobs(['waiting'])) as Array<Job<WebhookJobData>>;
  return { receiver, endpointId, jobs: jobs.filter((job) => job.data.endpointId === endpointId) };
}

/** The webhook processor over a connection whose commands on the webhook collections are counted. */
async function monitoredProcessor() {
  const connection = mongoose.createConnection(ingress.context.config.mongoUrl, { monitorCommands: true });
  await connection.asPromise();
  const commands: string[] = [];
  connection.getClient().on('commandStarted', (event) => {
    const collection = event.command[event.commandName];
    if (typeof collection === 'string' && collection.startsWith('webhook_'))
      commands.push(`${event.commandName} ${collection}`);
  });
  const processor = webhookProcessor({ ...ingress.context, models: createModels(connection) });
  const close = async () => {
    await processor.close();
    await connection.close();
  };
  return { processor, commands, close };
}

describe('what webhook calls cost the database', () => {
  it('reads an endpoint once for a burst of its events and writes their attempts together, not one insert per call', async () => {
    const { receiver, endpointId, jobs } = await queuedEvents(40);
    expect(jobs).toHaveLength(40);
    const { processor, commands, close } = await monitoredProcessor();
    try {
      // As a worker with 40 calls in flight.
      await Promise.all(jobs.map((job) => processor.process(job)));
    } finally {
      await close();
    }
    expect(receiver.ofType('message.failed')).toHaveLength(40);
    expect(commands.filter((command) => command === 'find webhook_endpoints')).toHaveLength(1);
    const inserts = commands.filter((command) => command === 'insert webhook_attempts');
    expect(inserts.length).toBeGreaterThan(0);
    // One write a second: two if the 40 calls straddle a second.
    expect(inserts.length).toBeLessThanOrEqual(2);
    expect(await ingress.context.models.WebhookAttempt.countDocuments({ endpointId, status: 200 })).toBe(40);
  });

  it('acts on the state its own calls gave the endpoint: failing since the first failure, recovered by a 2xx', async () => {
    const { receiver, endpointId, jobs } = await queuedEvents(1);
    const { processor, close } = await monitoredProcessor();
    const failingSince = async () =>
      (await ingress.context.models.WebhookEndpoint.findById(endpointId).lean())?.failingSince ?? null;
    try {
      receiver.answer = () => 500;
      await expect(processor.process(jobs[0]!)).rejects.toThrow(/500/);
      const firstFailure = await failingSince();
      expect(firstFailure).toBeInstanceOf(Date);
      await expect(processor.process(jobs[0]!)).rejects.toThrow(/500/);
      expect(await failingSince()).toEqual(firstFailure);
      receiver.answer = () => 200;
      await processor.process(jobs[0]!);
      expect(await failingSince()).toBeNull();
    } finally {
      await close();
    }
  });
});
