import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { modelsCountingInserts } from '../support/counted-inserts.ts';
import { DeviceStore } from '../../src/devices/device-store.ts';
import { isEventIngestJob, type EventIngestJob } from '../../src/queues/event-ingest.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ projects: { project: 'team', other: 'team' } });

/** The @first_session events queued for the project's devices whose ids start with the prefix, as `type subjectId`. */
async function queuedFirstSessions(projectId: string, prefix: string) {
  const jobs = (await ingress.context.queues.eventIngest.getJobs(['waiting', 'delayed', 'prioritized']))
    .filter((job) => isEventIngestJob(job.name))
    .map((job) => job.data as EventIngestJob)
    .filter((job) => job.projectId === projectId && job.events.some((event) => event.subjectId.startsWith(prefix)));
  return { jobs, events: jobs.flatMap((job) => job.events.map((event) => `${event.type} ${event.subjectId}`)).sort() };
}

describe('a burst of new devices', () => {
  it('stores the devices registered at once in a few inserts and queues their @first_session in a few jobs', async () => {
    const { models, inserts: deviceInserts } = await modelsCountingInserts(ingress.context.config.mongoUrl, 'devices');
    const store = new DeviceStore({ ...ingress.context, models });
    const deviceIds = Array.from({ length: 200 }, (_, index) => `burst-${index}`);
    await Promise.all(
      deviceIds.map((deviceId) =>
        store.register(project.projectId, deviceId, { platform: 'android', pushToken: `token-${deviceId}` }),
      ),
    );

    expect(
      await ingress.context.models.Device.countDocuments({ projectId: project.projectId, deviceId: /^burst-/ }),
    ).toBe(200);
    // At most 16 waiting registrations a command: 13 at the least, one per device before.
    expect(deviceInserts.reduce((sum, documents) => sum + documents, 0)).toBe(200);
    expect(deviceInserts.length).toBeLessThanOrEqual(20);
    const { jobs, events } = await queuedFirstSessions(project.projectId, 'burst-');
    expect(events).toEqual(deviceIds.map((deviceId) => `@first_session ${deviceId}`).sort());
    expect(jobs.length).toBeLessThanOrEqual(20);
  });

  it("fails the registrations of a project whose job could not be queued, and no other project's", async () => {
    const store = new DeviceStore(ingress.context);
    const queue = ingress.context.queues.eventIngest;
    const add = queue.add.bind(queue);
    const queueing = vi.spyOn(queue, 'add').mockImplementation(async (name, data, options) => {
      // What ioredis throws while Redis is away, for one project's job only.
      if ((data as EventIngestJob).projectId === other.projectId)
        throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
      return add(name, data, options);
    });
    onTestFinished(() => queueing.mockRestore());
    const register = (projectId: string, deviceId: string) =>
      store.register(projectId, deviceId, { platform: 'android', pushToken: `token-${projectId}-${deviceId}` });
    const deviceIds = Array.from({ length: 20 }, (_, index) => `mixed-${index}`);
    const outcomes = await Promise.allSettled(
      deviceIds.flatMap((deviceId) => [register(project.projectId, deviceId), register(other.projectId, deviceId)]),
    );
    // Both projects' devices went in the same rounds: the first project's registered, the other's refused.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(deviceIds.flatMap(() => ['fulfilled', 'rejected']));
    const stored = (projectId: string) =>
      ingress.context.models.Device.countDocuments({ projectId, deviceId: /^mixed-/ });
    expect(await stored(project.projectId)).toBe(20);
    expect(await stored(other.projectId)).toBe(0);
    expect((await queuedFirstSessions(project.projectId, 'mixed-')).events).toEqual(
      deviceIds.map((deviceId) => `@first_session ${deviceId}`).sort(),
    );
    expect((await queuedFirstSessions(other.projectId, 'mixed-')).events).toEqual([]);
  });
});
