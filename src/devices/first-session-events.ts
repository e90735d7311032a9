import type { Deps } from '../deps.ts';
import { MicroBatcher } from '../infra/micro-batcher.ts';
import { enqueueEvents } from '../queues/event-ingest.ts';
import { firstSessionEvent } from '../schemas/automatic-events.ts';
import { maxEventsPerRequest } from '../schemas/events.ts';

interface NewDevice {
  projectId: string;
  deviceId: string;
}

/** Why a project's job was not queued; none when it was. */
type Queued = { failure: unknown } | undefined;

/**
 * Queues each new device's @first_session with those of the devices created while the previous jobs were being
 * queued: one job per project, so that a burst of registrations costs the event-ingest worker a job per burst, not one
 * per device. Each project's job is queued on its own: one that fails fails its own devices' registrations only, and
 * never leaves another project's devices without their event or with it twice. At most a request's worth of events a
 * round, which is what a job may hold.
 */
export function firstSessionEvents(deps: Pick<Deps, 'queues'>): (device: NewDevice) => Promise<void> {
  const rounds = new MicroBatcher<NewDevice, Queued>(async (devices) => {
    const failures = new Map<string, Queued>();
    await Promise.all(
      [...Map.groupBy(devices, (device) => device.projectId)].map(([projectId, ofProject]) =>
        enqueueEvents(
          deps,
          projectId,
          ofProject.map(({ deviceId }) => ({
            type: firstSessionEvent,
            subjectType: 'device',
            subjectId: deviceId,
            data: {},
          })),
        ).catch((failure: unknown) => failures.set(projectId, { failure })),
      ),
    );
    return devices.map(({ projectId }) => failures.get(projectId));
  }, maxEventsPerRequest);
  return async (device) => {
    const queued = await rounds.add(device);
    if (queued) throw queued.failure;
  };
}
