import type { NotificationData } from '../schemas/notification.ts';
import type { EntryEvent } from '../schemas/events.ts';
import { contentFields, type ContentField, type MessageContent } from './message-content.ts';
import type { ScopeDevice } from './personalization-scope.ts';

/** What one message renders with, for every device of a task. */
export interface RenderRequest {
  content: MessageContent;
  data: NotificationData;
  entryEvent: EntryEvent | null;
}

/**
 * A device's content, or why it has none: the field that failed, and the reason; `stopped` when the pool stopped its
 * render (past the time bound, or its thread died on it twice), which says the content itself is too costly.
 */
export type DeviceRendering = { content: MessageContent } | RenderFailure;
export type RenderFailure = { field: ContentField; reason: string; stopped?: true };

/** Why a device has no content when its render ran past the bound (CONTRACTS §9: a per-device error, counted failed). */
export const renderTimeoutReason = 'render_timeout';

/** Why the jobs left after a message's renders were stopped `maxStops` times fail without a render. */
export const notRenderedReason = `${renderTimeoutReason}: not rendered, as the message ran past the bound for other devices`;

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
  /** Renders stopped (an engine limit) past which the task's other jobs fail without a render. */
  maxStops: number;
  /** How much of its thread's processor time the whole task may use: the jobs not begun by then fail without a render. */
  totalMs: number;
}

/**
 * The task of these jobs. The copy to a thread costs per object: a device of many jobs (one device's in-app
 * messages) is sent once, and the jobs as one typed array, where an object per job cost about five times as much.
 */
export function encodeRenderTask(
  requests: RenderRequest[],
  jobs: RenderJob[],
  progress: SharedArrayBuffer,
  bounds: Pick<RenderTask, 'maxStops' | 'totalMs'>,
): RenderTask {
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
  return { requests, devices, jobs: pairs, progress, ...bounds };
}

/**
 * What a thread answers for a task: every job's fields in contentFields order, all in one flat array of strings, so
 * that the answer crosses back as one array rather than an object per job; and the jobs that failed, whose fields are
 * null.
 */
export interface TaskAnswer {
  texts: Array<string | null>;
  failed: Array<{ job: number } & RenderFailure>;
}

export function encodeAnswer(renderings: DeviceRendering[]): TaskAnswer {
  const texts: Array<string | null> = [];
  const failed: TaskAnswer['failed'] = [];
  renderings.forEach((rendering, job) => {
    if ('content' in rendering) {
      for (const field of contentFields) texts.push(rendering.content[field]);
      return;
    }
    failed.push({ job, ...rendering });
    for (const _field of contentFields) texts.push(null);
  });
  return { texts, failed };
}

export function decodeAnswer({ texts, failed }: TaskAnswer): DeviceRendering[] {
  const renderings: DeviceRendering[] = new Array(texts.length / contentFields.length);
  for (let job = 0; job < renderings.length; job++) {
    const at = job * contentFields.length;
    renderings[job] = {
      content: { title: texts[at]!, body: texts[at + 1]!, url: texts[at + 2]!, imageUrl: texts[at + 3]! },
    };
  }
  for (const { job, ...failure } of failed) renderings[job] = failure;
  return renderings;
}
