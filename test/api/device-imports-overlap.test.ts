import { describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { deviceImportProcessor } from '../../src/device-files/import-processor.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { addToDayOnce } from '../../src/overview/daily-counts.ts';
import { LostLockError } from '../../src/queues/lost-lock.ts';
import type { DeviceImportJobData } from '../../src/queues/device-import.ts';
import { useDeliveryHarness } from '../support/delivery-harness.ts';
import { ndjson, readImport, uploadImport } from '../support/device-imports.ts';

// No device-import worker: the tests run the import's processor themselves, as overlapping runs would.
const { harness } = useDeliveryHarness({ queues: [] });

/** An upload of `count` new subscribed devices and one bad line (a file of several batches), queued and not run. */
async function queuedImport(count: number) {
  const owner = await harness.ingress.createProject('team');
  const rows = Array.from({ length: count }, (_, i) => ({ id: `d${i}`, platform: 'android', pushToken: `tok-${i}` }));
  const body = ndjson([...rows.slice(0, 700), { id: 'bad id!', platform: 'android' }, ...rows.slice(700)]);
  const uploaded = await uploadImport(harness.ingress, owner, body, 'application/x-ndjson');
  expect(uploaded.status).toBe(202);
  const { context } = harness.workers;
  const job = (await context.queues.deviceImport.getJob(uploaded.body.data.id)) as Job<DeviceImportJobData>;
  const read = async () => (await readImport(harness.ingress, owner, job.id!)).body.data;
  return { owner, job, read };
}

describe('a device import run twice at once', () => {
  it('counts every row, and the day its subscribed devices, once', async () => {
    const { owner, job, read } = await queuedImport(1_600);
    const process = deviceImportProcessor(harness.workers.context);
    await Promise.all([process(job), process(job)]);

    expect(await read()).toMatchObject({ status: 'completed', rows: 1_601, created: 1_600, updated: 0, failed: 1 });
    const devices = await harness.workers.context.models.Device.countDocuments({ projectId: owner.projectId });
    expect(devices).toBe(1_600);
    const overview = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/overview`, {
      key: owner.apiKey,
    });
    expect(overview.body.data.days.at(-1).subscribed).toBe(1_600);
  });

  it('stops a run whose lock another run holds before it applies a batch', async () => {
    const { job, read } = await queuedImport(600);
    const { context } = harness.workers;
    await context.redis.set(redisKeys.jobLock(job.queueQualifiedName, job.id!), 'the-other-run');
    await expect(deviceImportProcessor(context)(job, 'this-run')).rejects.toBeInstanceOf(LostLockError);
    expect(await read()).toMatchObject({ rows: 0, created: 0, failed: 0 });
  });

  it("adds a batch to the day once, also when a lagging run reaches it after the other run's later batch", async () => {
    const owner = await harness.ingress.createProject('team');
    const { models } = harness.workers.context;
    const at = new Date();
    const add = (step: number) =>
      addToDayOnce(models, owner.projectId, { subscribed: 500 }, at, { writer: 'imp', step });
    for (const step of [0, 500, 0, 500]) await add(step);
    const overview = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/overview`, {
      key: owner.apiKey,
    });
    expect(overview.body.data.days.at(-1).subscribed).toBe(1_000);
  });
});
