import type { NotificationData } from '../schemas/notification.ts';
import type { EntryEvent } from '../schemas/events.ts';
import type { MessageContent } from './message-content.ts';
import type { ScopeDevice } from './personalization-scope.ts';

/** What one message renders with, for every device of a task. */
export interface RenderRequest {
  content: MessageContent;
  data: NotificationData;
  entryEvent: EntryEvent | null;
}

/** One render of a task: a device, and which of the task's messages it renders. */
export interface RenderJob {
  request: number;
  device: ScopeDevice;
}

/** Jobs as they cross to a render thread: each device once, and the jobs as pairs of numbers. */
export interface RenderTask {
  requests: RenderRequest[];
  /** Only what Liquid reads of each device: a batch's tokens and keys are not copied. */
  devices: ScopeDevice[];
  /** Job i renders requests[jobs[2i]] for devices[jobs[2i + 1]]. */
  jobs: Uint32Array;
  /** Where the thread says which job and field it is rendering, for the pool's watchdog to read. */
  progress: SharedArrayBuffer;
}

/**
 * The task of these jobs. The copy to a thread costs per object: a device of many jobs (one device's in-app
 * messages) is sent once, and the jobs as one typed array, where an object per job cost about five times as much.
 */
export function encodeRenderTask(requests: RenderRequest[], jobs: RenderJob[], progress: SharedArrayBuffer): RenderTask {
  const deviceIndex = new Map<ScopeDevice, number>();
  const devices: ScopeDevice[] = [];
  const pairs = new Uint32Array(jobs.length * 2);
  jobs.forEach(({ request, device }, job) => {
    let index = deviceIndex.get(device);
    if (index === undefined) {
      index = devices.push({ deviceId: device.deviceId, userId: device.userId, tags: device.tags }) - 1;
      deviceIndex.set(device, index);
    }
    pairs[2 * job] = request;
    pairs[2 * job + 1] = index;
  });
  return { requests, devices, jobs: pairs, progress };
}
