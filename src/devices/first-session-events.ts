import type { Deps } from '../deps.ts';
import { microBatchedWrites } from '../infra/micro-batcher.ts';
import { enqueueEventJobs } from '../queues/event-ingest.ts';
import { firstSessionEvent } from '../schemas/automatic-events.ts';

interface NewDevice {
  projectId: string;
  deviceId: string;
}

/** New devices whose @first_session goes in one job: the worker then stores a burst's events in few inserts. */
const maxDevicesPerJob = 500;

/**
 * Queues each new device's @first_session, with those of the devices created while the previous jobs were being
 * queued: one job per project per round trip, so that a burst of registrations costs the event-ingest worker a job
 * per burst, not one per device. A failed round trip fails each of its devices' registrations.
 */
export function firstSessionEvents(deps: Pick<Deps, 'queues'>): (device: NewDevice) => Promise<void> {
  return microBatchedWrites(async (devices: NewDevice[]) => {
    const byProject = new Map<string, string[]>();
    for (const { projectId, deviceId } of devices) {
      const deviceIds = byProject.get(projectId) ?? [];
      deviceIds.push(deviceId);
      byProject.set(projectId, deviceIds);
    }
    await enqueueEventJobs(
      deps,
      [...byProject].map(([projectId, deviceIds]) => ({
        projectId,
        events: deviceIds.map((deviceId) => ({
          type: firstSessionEvent,
          subjectType: 'device' as const,
          subjectId: deviceId,
          data: {},
        })),
      })),
    );
  }, maxDevicesPerJob);
}
