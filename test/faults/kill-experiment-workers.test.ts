import { expect, it } from 'vitest';
import {
  deliveriesReached,
  expectEveryDeviceDelivered,
  seedSegmentAudience,
  useFaultHarness,
} from '../support/fault-harness.ts';
import { readNotification, sendNotification } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { pickWinner } from '../support/experiments.ts';
import { gatewayCallSize } from '../../src/delivery/delivery-run.ts';

const devices = 4000;
const deliverConcurrency = 16;
// A short lock, so that the killed workers' jobs are found stalled and handed on within seconds.
const harness = useFaultHarness({
  workerEnv: {
    WORKER_LOCK_DURATION_MS: '5000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    DELIVER_CONCURRENCY: String(deliverConcurrency),
  },
});

/** Long enough for a batch's five attempts and their back-off under a load of 30 on two cores. */
const testEndMs = 180_000;

/** The send's batches not yet ended, with their state and attempts, for the message of a test that waited too long. */
async function unfinishedBatches(id: string): Promise<string> {
  const jobs = await harness.ingress.context.queues.deliver.getJobs(['active', 'waiting', 'delayed', 'prioritized']);
  const own = jobs.filter((job) => job?.data.notificationId === id);
  const states = await Promise.all(own.map(async (job) => `${job.id} ${await job.getState()} ${job.attemptsMade}`));
  return `batches not ended: ${states.join(', ') || 'none'}\n${harness.workerOutput()}`;
}

/*
 * As for a plain send (kill-deliver-worker.test.ts): a kill -9 may repeat at most the gateway calls the killed deliver
 * process had in flight, deliverConcurrency × gatewayCallSize devices per kill, and loses none. An experiment adds its
 * groups: a resumed fan-out, test or winner, must put every device where the stable hash put it, so that no tested
 * device gets the winner too and no waiting device is left out.
 */
it(
  'kill -9 of the deliver worker mid-test and of the send and deliver workers mid-winner fan-out: every device one push, repeats bounded',
  async () => {
    const send = await harness.startWorker('send');
    let deliver = await harness.startWorker('deliver');
    const { project, tokens } = await seedSegmentAudience(harness, devices);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'segment',
      targetIds: ['everyone'],
      variants: [
        { name: 'a', title: 'A {{ device.tags.name }}', body: 'Variant a' },
        { name: 'b', title: 'B {{ device.tags.name }}', body: 'Variant b' },
      ],
      experiment: { testPercent: 50, metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
    });

    await deliveriesReached(harness, devices / 8);
    deliver.child.kill('SIGKILL');
    expect((await deliver.exited).signal).toBe('SIGKILL');
    deliver = await harness.startWorker('deliver');
    // The test is over when its send job is: it completes once every one of its delivery batches has ended, however
    // long a batch retried. On a loaded machine a batch's retries (gateway calls timing out, BullMQ's back-off between
    // attempts) can outlast any fixed wait for the counts, so the counts are read after that end, and must then be whole.
    await eventually(
      async () => expect(await harness.ingress.context.queues.send.getJobState(id)).toBe('completed'),
      testEndMs,
      500,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await unfinishedBatches(id)}`);
    });
    const { stats } = await readNotification(harness.ingress, project, id);
    const failed = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/notifications/${id}/deliveries?outcome=failed`,
      { key: project.apiKey },
    );
    expect({ stats, failed: failed.body.data }).toMatchObject({
      stats: { sent: stats.targeted, failed: 0, unsubscribed: 0 },
      failed: [],
    });
    const tested = stats.targeted as number;
    expect(tested).toBeGreaterThan(devices / 3);
    expect(tested).toBeLessThan((devices * 2) / 3);

    const picked = await pickWinner(harness.ingress, project, id, 'b');
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    await deliveriesReached(harness, tested + 200);
    send.child.kill('SIGKILL');
    deliver.child.kill('SIGKILL');
    expect([(await send.exited).signal, (await deliver.exited).signal]).toEqual(['SIGKILL', 'SIGKILL']);
    await harness.startWorker('send');
    await harness.startWorker('deliver');

    await expectEveryDeviceDelivered(harness, project, id, tokens, {
      maxDoubled: 2 * deliverConcurrency * gatewayCallSize,
      timeoutMs: testEndMs,
    });
    const done = await readNotification(harness.ingress, project, id);
    expect(done.experiment).toMatchObject({ status: 'completed', winner: 'b', decidedBy: 'manual' });
  },
  3 * testEndMs,
);
