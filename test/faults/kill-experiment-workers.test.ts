import { expect, it } from 'vitest';
import {
  deliveriesReached,
  expectEveryDeviceDelivered,
  seedSegmentAudience,
  useFaultHarness,
} from '../support/fault-harness.ts';
import { readNotification, sendNotification } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
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

/*
 * As for a plain send (kill-deliver-worker.test.ts): a kill -9 may repeat at most the gateway calls the killed deliver
 * process had in flight, deliverConcurrency × gatewayCallSize devices per kill, and loses none. An experiment adds its
 * groups: a resumed fan-out, test or winner, must put every device where the stable hash put it, so that no tested
 * device gets the winner too and no waiting device is left out.
 */
it('kill -9 of the deliver worker mid-test and of the send and deliver workers mid-winner fan-out: every device one push, repeats bounded', async () => {
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
  const tested = await eventually(
    async () => {
      const view = await readNotification(harness.ingress, project, id);
      expect(view.stats.targeted).toBeGreaterThan(devices / 3);
      expect(view.stats.sent, JSON.stringify(view.stats)).toBe(view.stats.targeted);
      return view.stats.targeted as number;
    },
    120_000,
    200,
  );
  expect(tested).toBeLessThan((devices * 2) / 3);

  const picked = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications/${id}/winner`, {
    key: project.apiKey,
    body: { variant: 'b' },
  });
  expect(picked.status, JSON.stringify(picked.body)).toBe(200);
  await deliveriesReached(harness, tested + 200);
  send.child.kill('SIGKILL');
  deliver.child.kill('SIGKILL');
  expect([(await send.exited).signal, (await deliver.exited).signal]).toEqual(['SIGKILL', 'SIGKILL']);
  await harness.startWorker('send');
  await harness.startWorker('deliver');

  await expectEveryDeviceDelivered(harness, project, id, tokens, {
    maxDoubled: 2 * deliverConcurrency * gatewayCallSize,
  });
  const done = await readNotification(harness.ingress, project, id);
  expect(done.experiment).toMatchObject({ status: 'completed', winner: 'b', decidedBy: 'manual' });
}, 240_000);
