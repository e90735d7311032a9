import { describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { useIngress } from '../support/ingress.ts';
import { sendNotification } from '../support/delivery-harness.ts';
import { insertUserDevices } from '../support/timing.ts';
import { sendProcessor } from '../../src/delivery/send-processor.ts';
import type { SendJobData } from '../../src/queues/send.ts';

// No workers: the test runs the send job itself, and stops its first run where a kill would.
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const minuteMs = 60_000;

describe('a local-time fan-out stopped after queuing a part, before recording it (CONTRACTS §1)', () => {
  it('is resumed with the same part, queued once, and every device in exactly one part and counted once', async () => {
    const devices = await insertUserDevices(ingress, project, 'resume-', 6, {
      userId: 'rae',
      timezones: ['UTC', 'Asia/Tokyo'],
    });
    const id = await sendNotification(ingress, project, {
      targetType: 'userId',
      targetIds: ['rae'],
      body: 'later',
      localTime: new Date(Date.now() + 150 * minuteMs).toISOString().slice(11, 16),
    });
    const { send, deliver } = ingress.context.queues;
    const first = (await send.getJob(id)) as Job<SendJobData>;
    // Each part is saved twice, planned and recorded: the fourth save is the second part's record.
    let saves = 0;
    const save = first.updateData.bind(first);
    first.updateData = async (data) => {
      saves += 1;
      if (saves === 4) throw new Error('killed');
      return save(data);
    };
    await expect(sendProcessor(ingress.context)(first)).rejects.toThrow('killed');
    const interrupted = (await send.getJob(id)) as Job<SendJobData>;
    expect(interrupted.data.progress?.localTime?.queuing).toBeDefined();
    const partsBefore = (await deliver.getDelayed()).filter((job) => job.data.notificationId === id);
    expect(partsBefore).toHaveLength(2);

    await sendProcessor(ingress.context)(interrupted);
    const parts = (await deliver.getDelayed()).filter((job) => job.data.notificationId === id);
    expect(parts.map((part) => part.id).sort()).toEqual(partsBefore.map((part) => part.id).sort());
    const queued = parts.flatMap((part) => part.data.devices.map((device: { deviceId: string }) => device.deviceId));
    expect(queued.sort()).toEqual([...devices].sort());
    const view = await ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${id}`, {
      key: project.apiKey,
    });
    expect(view.body.data).toMatchObject({ stats: { targeted: 6, sent: 0 }, zones: { total: 2, sent: 0 } });
  });
});
