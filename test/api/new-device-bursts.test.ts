import mongoose from 'mongoose';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { createModels } from '../../src/models/index.ts';
import { DeviceStore } from '../../src/devices/device-store.ts';
import { eventIngestJobName, type EventIngestJob } from '../../src/queues/event-ingest.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

describe('a burst of new devices', () => {
  it('stores the devices registered at once in a few inserts and queues their @first_session in a few jobs', async () => {
    const monitored = mongoose.createConnection(ingress.context.config.mongoUrl, { monitorCommands: true });
    onTestFinished(() => monitored.close());
    await monitored.asPromise();
    const deviceInserts: number[] = [];
    monitored.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'insert' && event.command.insert === 'devices')
        deviceInserts.push(event.command.documents.length);
    });
    const store = new DeviceStore({ ...ingress.context, models: createModels(monitored) });
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
    const jobs = (await ingress.context.queues.eventIngest.getJobs(['waiting', 'delayed', 'prioritized']))
      .filter((job) => job.name === eventIngestJobName)
      .map((job) => job.data as EventIngestJob)
      .filter((job) => job.events.some((event) => event.subjectId.startsWith('burst-')));
    const firstSessions = jobs.flatMap((job) => job.events.map((event) => `${event.type} ${event.subjectId}`));
    expect(firstSessions.sort()).toEqual(deviceIds.map((deviceId) => `@first_session ${deviceId}`).sort());
    expect(jobs.every((job) => job.projectId === project.projectId)).toBe(true);
    expect(jobs.length).toBeLessThanOrEqual(20);
  });
});
