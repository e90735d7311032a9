import mongoose from 'mongoose';
import type { Job } from 'bullmq';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createModels } from '../../src/models/index.ts';
import { webhookProcessor } from '../../src/webhooks/webhook-processor.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import { webhookQueue, webhookRetryDelay, type WebhookJobData } from '../../src/queues/webhook.ts';

// No workers: the test runs the webhook jobs itself, over a connection whose commands it sees.
const { ingress } = useIngress();

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/**
 * A fresh project with an endpoint for message.failed on a loopback receiver, and `count` events queued for it in
 * `publishes` publishes (as that many gateway calls' outcomes would be).
 */
async function queuedEvents(count: number, publishes = 1) {
  const project = await ingress.createProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: receiver.url, events: ['message.failed'] },
  });
  const endpointId: string = created.body.data.id;
  const events = Array.from({ length: count }, (_, index) => messageFailed('n1', `d${index}`, 'refused', new Date()));
  const perPublish = Math.ceil(count / publishes);
  for (let start = 0; start < count; start += perPublish)
    await publishWebhookEvents(ingress.context, project.projectId, events.slice(start, start + perPublish));
  return { project, receiver, endpointId, jobs: await jobsOf(endpointId, 'waiting') };
}

async function jobsOf(endpointId: string, state: 'waiting' | 'delayed') {
  const jobs = (await ingress.context.queues.webhook.getJobs([state])) as Array<Job<WebhookJobData>>;
  return jobs.filter((job) => job.data.endpointId === endpointId);
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
  it('reads an endpoint once for a burst of its events and writes nothing else there; the attempts list keeps the last 100, newest first', async () => {
    const { project, receiver, endpointId, jobs } = await queuedEvents(110, 5);
    // A job per publish (a gateway call's outcomes), not per event.
    expect(jobs.map((job) => job.data.events.length)).toEqual([22, 22, 22, 22, 22]);
    const { processor, commands, close } = await monitoredProcessor();
    // The burst within one of the endpoint cache's periods, however slow the machine: the clock it reads (Date.now)
    // held still, while the attempts' times (new Date()) run on.
    const cacheClock = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      // Two at a time, as many as run for one endpoint at once.
      await Promise.all(
        [0, 1].map(async (lane) => {
          for (const job of jobs.filter((_, index) => index % 2 === lane)) await processor.process(job);
        }),
      );
    } finally {
      cacheClock.mockRestore();
      await close();
    }
    expect(receiver.ofType('message.failed')).toHaveLength(110);
    // The models' set-up of their collections and indexes aside.
    expect(commands.filter((command) => !command.startsWith('create'))).toEqual(['find webhook_endpoints']);
    const listed = await ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/webhooks/${endpointId}/attempts?limit=100`,
      { key: project.apiKey },
    );
    expect(listed.status).toBe(200);
    const attempts: Array<{ webhookId: string; status: number; at: string }> = listed.body.data;
    expect(attempts).toHaveLength(100);
    expect(attempts.every((attempt) => attempt.status === 200)).toBe(true);
    const times = attempts.map((attempt) => Date.parse(attempt.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(attempts.map((attempt) => attempt.webhookId)).size).toBe(100);
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

  it("calls each of a batch's events once and queues only those that failed, alone, under their own webhook-ids", async () => {
    const { receiver, endpointId, jobs } = await queuedEvents(10);
    expect(jobs).toHaveLength(1);
    const refused = new Set(['d3', 'd7']);
    receiver.answer = (call) => (refused.has(call.event.data.deviceId) ? 500 : 200);
    const { processor, close } = await monitoredProcessor();
    try {
      expect(await processor.process(jobs[0]!)).toMatch(/^8 delivered; 2 failed/);
      expect(receiver.received).toHaveLength(10);
      const idOf = (deviceId: string) =>
        receiver.received.find((call) => call.event.data.deviceId === deviceId)!.headers['webhook-id'];
      const retries = await jobsOf(endpointId, 'delayed');
      expect(retries.map((job) => [job.id, job.data.events.map(({ event }) => event.data.deviceId)]).sort()).toEqual(
        [
          [idOf('d3'), ['d3']],
          [idOf('d7'), ['d7']],
        ].sort(),
      );
      // Each retry is due after the first retry's delay, and its own retries continue the event's schedule.
      const { retryBaseMs } = ingress.context.config.webhooks;
      for (const retry of retries) {
        expect(retry.delay).toBe(webhookRetryDelay(1, retryBaseMs));
        expect(retry.data.retry).toEqual({ callsMade: 1, firstQueuedAt: jobs[0]!.timestamp });
        expect(webhookQueue.backoffStrategy!(1, ingress.context.config, retry)).toBe(webhookRetryDelay(2, retryBaseMs));
      }
      receiver.answer = () => 200;
      for (const retry of retries) expect(await processor.process(retry)).toBe('1 delivered');
      const calls = receiver.received.slice(10).map((call) => [call.headers['webhook-id'], call.event.data.deviceId]);
      expect(calls.sort()).toEqual(
        [
          [idOf('d3'), 'd3'],
          [idOf('d7'), 'd7'],
        ].sort(),
      );
    } finally {
      await close();
    }
  });

  it('stops calling a batch at a 410, disables the endpoint and queues no retry', async () => {
    const { receiver, endpointId, jobs } = await queuedEvents(20);
    expect(jobs).toHaveLength(1);
    receiver.answer = () => 410;
    const { processor, close } = await monitoredProcessor();
    try {
      expect(await processor.process(jobs[0]!)).toMatch(/410 Gone, endpoint disabled/);
    } finally {
      await close();
    }
    // Only the calls already in flight at the first 410 were made.
    expect(receiver.received.length).toBeLessThan(20);
    expect(await jobsOf(endpointId, 'delayed')).toEqual([]);
    const endpoint = await ingress.context.models.WebhookEndpoint.findById(endpointId).lean();
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
  });
});
