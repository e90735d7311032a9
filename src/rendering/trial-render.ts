import type { ErrorDetail } from '../errors.ts';
import type { NotificationData } from '../schemas/notification.ts';
import type { ContentField, MessageContent } from './message-content.ts';
import type { EntryEvent } from '../schemas/events.ts';
import type { RenderPool } from './render-pool.ts';
import { notRenderedReason } from './render-task.ts';

/** One content rendered at save, and where a 400 names each of its fields. */
export interface Trial {
  content: MessageContent;
  detail: (field: ContentField, message: string) => ErrorDetail;
}

export type TrialScope = { data?: NotificationData; entryEvent?: EntryEvent | null };

/** The renders stopped at save that are named before the rest are left unrendered, as a send stops after as many. */
const maxTrialStops = 3;

/**
 * Content is rendered once when it is saved, as for a device with no tags (with the send's data, when it has any):
 * content whose render was stopped (the pool's time bound, an engine limit) is refused then, a 400 naming the field,
 * instead of failing every device. All of a message's contents (its own, each localization, each button) render as one
 * task, bounded in total by the time bound of one field, and stopped after a few refusals: a message of many costly
 * fields is refused in about the time of one. Other failures (a body blank for want of a variable) depend on the
 * device and are left to the delivery.
 */
export async function trialsErrors(
  renderer: RenderPool,
  projectId: string,
  trials: Trial[],
  scope: TrialScope,
): Promise<ErrorDetail[]> {
  const data = scope.data ?? {};
  const entryEvent = scope.entryEvent ?? null;
  const requests = trials.map(({ content }) => ({ content, data, entryEvent }));
  const device = { deviceId: '' };
  const jobs = trials.map((_trial, request) => ({ request, device }));
  const renderings = await renderer.renderEach(requests, jobs, {
    projectId,
    maxStops: maxTrialStops,
    totalMs: renderer.timeoutMs,
  });
  return renderings.flatMap((rendering, index) =>
    'stopped' in rendering && rendering.reason !== notRenderedReason
      ? [trials[index]!.detail(rendering.field, `could not be rendered: ${rendering.reason}`)]
      : [],
  );
}

/** A message's own content, named at its field, or through /templateId for a named template. */
export function contentTrial(content: MessageContent, fromTemplate = false): Trial {
  return {
    content,
    detail: (field, message) =>
      fromTemplate ? { path: '/templateId', message: `its ${field} ${message}` } : { path: `/${field}`, message },
  };
}

export function trialRenderErrors(
  renderer: RenderPool,
  projectId: string,
  content: MessageContent,
  scope: TrialScope = {},
  fromTemplate = false,
): Promise<ErrorDetail[]> {
  return trialsErrors(renderer, projectId, [contentTrial(content, fromTemplate)], scope);
}
