import { expect, it } from 'vitest';
import type { Job } from 'bullmq';
import {
  deliveriesReached,
  expectDeliveredExactlyOnce,
  startSegmentSend,
  useFaultHarness,
} from '../support/fault-harness.ts';
import { registerDevices, sendNotification, waitUntilCompleted } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

const devices = 10_000;
const outageMs = 10_000;
const harness = useFaultHarness({ ownMongo: true });

/** The first line of the error that ended the job's last failed attempt, if any. */
const lastFailure = (job: Job) => job.stacktrace?.[0]?.split('\n')[0];

it('the MongoDB-wire server killed and away for 10 s during a segment send: delivery resumes, every device gets one push, and the outage spends no attempt', async () => {
  const { project, tokens, id } = await startSegmentSend(harness, devices);

  // Killed (not stopped) at a known point, so the outage always falls in the middle of the send: pushes the gateway
  // accepted in the moment MongoDB went away have no history yet, and must not be sent again.
  await deliveriesReached(harness, 2_000);
  await harness.mongo!.kill();
  const atKill = harness.sandbox.deliveries().length;
  await new Promise((resolve) => setTimeout(resolve, outageMs));
  await harness.mongo!.start();
  expect(atKill).toBeLessThan(devices / 2);

  await expectDeliveredExactlyOnce(harness, project, id, tokens);
  // The workers said why the send stood still, as the ingress does.
  expect(harness.workerOutput()).toContain('backing store unavailable');
  // The outage spent no attempt of the send or of any batch: each job ran only its completing attempt, so an outage
  // longer than the attempts' backoff (about 40 s for a batch) would not have failed them with their pushes unsent.
  const { send, deliver } = harness.ingress.context.queues;
  const batches = (await deliver.getJobs(['completed'])).filter((job) => job.data.notificationId === id);
  expect(batches.length).toBeGreaterThanOrEqual(devices / 500);
  const jobs = [(await send.getJob(id))!, ...batches];
  expect(
    jobs
      .filter((job) => job.attemptsMade !== 1)
      .map((job) => `${job.id}: ${job.attemptsMade} attempts, failed with ${lastFailure(job)}`),
  ).toEqual([]);
}, 150_000);

it('a scheduled send that comes due while the MongoDB-wire server is away goes out once it is back, its attempts unspent', async () => {
  await harness.startWorker('send');
  await harness.startWorker('deliver');
  const project = await harness.ingress.createProject('team');
  const devices = [
    { id: 'due-a', platform: 'android' as const, token: 'due-tok-a' },
    { id: 'due-i', platform: 'ios' as const, token: 'due-tok-i' },
  ];
  await registerDevices(harness.ingress, project, devices);
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: devices.map((device) => device.id),
    body: 'due in the outage',
    sendAt: new Date(Date.now() + 3000).toISOString(),
  });
  await harness.mongo!.kill();
  // The send job came due, met no server and is waiting to run again.
  const { send } = harness.ingress.context.queues;
  await eventually(async () => {
    const job = (await send.getJob(id))!;
    expect(job.processedOn).toBeDefined();
    expect(await job.getState()).toBe('delayed');
  }, 20_000);
  await harness.mongo!.start();

  await waitUntilCompleted(harness.ingress, project, id, 30_000);
  for (const device of devices) expect(harness.sandbox.deliveries(device.token)).toHaveLength(1);
  // The notification completes with its last batch, which may be before its send job is marked completed.
  await eventually(async () => expect(await send.getJobState(id)).toBe('completed'));
  const sendJob = (await send.getJob(id))!;
  expect(sendJob.attemptsMade, lastFailure(sendJob)).toBe(1);
}, 60_000);
