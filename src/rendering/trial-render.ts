import type { ErrorDetail } from '../errors.ts';
import type { NotificationData } from '../schemas/notification.ts';
import type { MessageContent } from './message-content.ts';
import type { EntryEvent } from '../schemas/events.ts';
import type { RenderPool } from './render-pool.ts';

/**
 * Content is rendered once when it is saved, as for a device with no tags (with the send's data, when it has any):
 * content whose render the pool had to stop is refused then, a 400 naming the field (through /templateId for a named
 * template), instead of failing every device. Other failures (a body blank for want of a variable) depend on the
 * device and are left to the delivery.
 */
export async function trialRenderErrors(
  renderer: RenderPool,
  projectId: string,
  content: MessageContent,
  scope: { data?: NotificationData; entryEvent?: EntryEvent | null } = {},
  fromTemplate = false,
): Promise<ErrorDetail[]> {
  const request = { content, data: scope.data ?? {}, entryEvent: scope.entryEvent ?? null };
  const [rendering] = await renderer.render(request, [{ deviceId: '' }], { projectId });
  if (rendering === undefined || !('stopped' in rendering)) return [];
  const message = `could not be rendered: ${rendering.reason}`;
  return [
    fromTemplate
      ? { path: '/templateId', message: `its ${rendering.field} ${message}` }
      : { path: `/${rendering.field}`, message },
  ];
}
