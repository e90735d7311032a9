import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveriesReached, expectDeliveredExactlyOnce, seedSegmentAudience, sendToSegment, startFaultHarness, type FaultHarness } from '../support/fault-harness.ts';

const devices = 10_000;
const outageMs = 10_000;
let harness: FaultHarness;

beforeAll(async () => {
  harness = await startFaultHarness({ ownMongo: true });
});
afterAll(() => harness?.close());

it('the MongoDB-wire server away for 10 s during a segment send: delivery resumes, every device gets one push', async () => {
  await harness.startWorker('send');
  const deliver = await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, devices);
  const id = await sendToSegment(harness, project);

  await deliveriesReached(harness, 500);
  await harness.mongo!.stop();
  const atStop = harness.sandbox.deliveries().length;
  await new Promise((resolve) => setTimeout(resolve, outageMs));
  await harness.mongo!.start();
  expect(atStop).toBeLessThan(devices);

  await new Promise((r) => setTimeout(r, 8000));
  const jobs = await harness.ingress.context.queues.deliver.getJobs(['completed', 'failed', 'waiting', 'active', 'delayed']);
  console.log('JOBS', jobs.length, JSON.stringify(jobs.map((j) => [j.id?.split('-').pop(), j.data.devices.length, j.data.devices[0]?.deviceId, j.attemptsMade]).sort((a, b) => Number(a[0]) - Number(b[0]))));
  console.log(deliver.output().split('\n').filter((l) => /failed|retrying/.test(l)).map((l) => l.slice(0, 400)).slice(0, 12).join('\n'));
  await expectDeliveredExactlyOnce(harness, project, id, tokens);
}, 180_000);
