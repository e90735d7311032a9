import type { OutgoingPush } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import type { MessageContent } from '../rendering/message-content.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { PreparedNotification } from './prepared-notification.ts';

export interface Rendered {
  device: BatchDevice;
  content: MessageContent;
}

export interface RenderedPushes {
  rendered: Rendered[];
  /** Devices whose content could not be rendered (a limit, a blank body, the time bound), with one of the reasons. */
  failed: BatchDevice[];
  failedReason: string | null;
}

/**
 * A message whose render the pool stopped for this many of its devices is too costly for the rest too: they fail
 * without a render. A hostile template sent to every device of a project then holds a render thread for a few times the
 * bound, not the bound times the project's size.
 */
export const maxStoppedRenders = 3;

/**
 * The content of each device's push, all rendered in the pool as one task. A template that exceeds the render limits
 * or the time bound for a device's variables fails this device only (the pool renders the others again); so does a
 * body that renders blank for it; past maxStoppedRenders, every device left. Pushes already sent are rendered again
 * only to write their history: `alreadySent` lets no earlier stop fail them.
 */
export async function renderPushes(
  renderer: RenderPool,
  projectId: string,
  notification: PreparedNotification,
  devices: BatchDevice[],
  { alreadySent = false } = {},
): Promise<RenderedPushes> {
  const { content, data, entryEvent } = notification;
  const maxStops = alreadySent ? undefined : Math.max(0, maxStoppedRenders - notification.stoppedRenders);
  const renderings = await renderer.render({ content, data, entryEvent }, devices, { projectId, maxStops });
  const pushes: RenderedPushes = { rendered: [], failed: [], failedReason: null };
  renderings.forEach((rendering, index) => {
    const device = devices[index]!;
    if ('content' in rendering) pushes.rendered.push({ device, content: rendering.content });
    else {
      pushes.failed.push(device);
      pushes.failedReason ??= rendering.reason;
      if (rendering.stopped) notification.stoppedRenders += 1;
    }
  });
  return pushes;
}

export function toOutgoing(notification: PreparedNotification, { device, content }: Rendered): OutgoingPush {
  const push: OutgoingPush = {
    token: device.pushToken,
    platform: device.platform,
    ...content,
    data: notification.pushData,
    collapseId: notification.id,
  };
  if (device.webPushKeys) push.webPushKeys = device.webPushKeys;
  return push;
}
