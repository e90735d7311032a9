import { describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { useIngress } from '../support/ingress.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { insertUserDevices } from '../support/timing.ts';
import { sendProcessor } from '../../src/fan-out/send-processor.ts';
import { zonePartSize } from '../../src/fan-out/local-time-fan-out.ts';
import type { SendJobData } from '../../src/queues/send.ts';

// No workers: the test runs the send job itself, and stops its first run where a kill would.
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const minuteMs = 60_000;

/**
 * Sends to `count` devices of one user, in UTC and Tokyo in turn, at a local time hours away; the fan-out's first run
 * stops at its `stopAt`th save of progress (each part is saved twice: planned, then recorded) and a second run resumes.
 */
async function interruptedFanOut(userId: string, count: number, stopAt: number) {
  const devices = await insertUserDevices(ingress, project, `${userId}-`, count, {
    userId,
    timezones: ['UTC', 'Asia/Tokyo'],
  });
  const id = await sendNotification(ingress, project, {
    targetType: 'userId',
    targetIds: [userId],
    body: 'later',
    localTime: new Date(Date.now() + 150 * minuteMs).toISOString().slice(11, 16),
  });
  const { send, deliver } = ingress.context.queues;
  const parts = async () => (await deliver.getDelayed()).filter((job) => job.data.notificationId === id);
  const first = (await send.getJob(id)) as Job<SendJobData>;
  let saves = 0;
  const save = first.updateData.bind(first);
  first.updateData = async (data) => {
    saves += 1;
    if (saves === stopAt) throw new Error('killed');
    return save(data);
  };
  await expect(sendProcessor(ingress.context)(first)).rejects.toThrow('killed');
  const interrupted = (await send.getJob(id)) as Job<SendJobData>;
  const planned = interrupted.data.progress?.localTime?.queuing;
  const queuedBefore = (await parts()).map((part) => part.id);
  await sendProcessor(ingress.context)(interrupted);
  const queued = await parts();
  const deviceIds = queued.flatMap((part) => part.data.devices.map((device: { deviceId: string }) => device.deviceId));
  const view = await ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${id}`, {
    key: project.apiKey,
  });
  return { devices, deviceIds, planned, queuedBefore, queued: queued.map((part) => part.id), view: view.body.data };
}

describe('a local-time fan-out stopped while queuing its parts (CONTRACTS §1)', () => {
  it('after queuing the last part, before recording it: queues the same part once, every device in one part, counted once', async () => {
    // The fourth save is the second part's record.
    const run = await interruptedFanOut('rae', 6, 4);
    expect(run.planned).toBeDefined();
    expect(run.queuedBefore).toHaveLength(2);
    expect(run.queued.sort()).toEqual([...run.queuedBefore].sort());
    expect(run.deviceIds.sort()).toEqual([...run.devices].sort());
    expect(run.view).toMatchObject({ stats: { targeted: 6, sent: 0 }, zones: { total: 2, sent: 0 } });
  });

  it('amid the stream, between two parts: resumes before the devices still gathered, none lost or queued twice', async () => {
    // 2 × (zonePartSize + 100) devices: each zone fills a part amid the stream, then ends with a part of 100. The
    // third save plans the second full part: the first is recorded, and the other zone's devices read before it are
    // gathered but in no part yet.
    const count = 2 * (zonePartSize + 100);
    const run = await interruptedFanOut('ray', count, 3);
    expect(run.planned).toBeUndefined();
    expect(run.queuedBefore).toHaveLength(1);
    expect(run.queued).toHaveLength(4);
    expect(run.queued).toContain(run.queuedBefore[0]);
    expect(run.deviceIds).toHaveLength(count);
    expect(new Set(run.deviceIds)).toEqual(new Set(run.devices));
    expect(run.view).toMatchObject({ stats: { targeted: count, sent: 0 }, zones: { total: 2, sent: 0 } });
  });
});
