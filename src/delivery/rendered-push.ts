import type { OutgoingPush, PushButton } from '../gateways/gateway.ts';
import type { DeviceRendering } from '../rendering/render-task.ts';
import { chosenLocalization, localizedContent } from './localized-content.ts';
import { renderButtons } from './rendered-buttons.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import type { MessageContent } from '../rendering/message-content.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { PreparedNotification } from './prepared-notification.ts';

export interface Rendered {
  device: BatchDevice;
  content: MessageContent;
  /** The message's buttons as rendered for this device, when it has any. */
  buttons?: PushButton[];
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
 * The content of each device's push, rendered in the pool as one task per language the batch's devices get (CONTRACTS
 * §14: the localization chosen by each device's language, from the notification already read), then its buttons. A template that exceeds the render limits
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
  const pushes: RenderedPushes = { rendered: [], failed: [], failedReason: null };
  if (notification.options.silent) {
    for (const device of devices) pushes.rendered.push({ device, content: silentContent });
    return pushes;
  }
  const renderings = new Map<BatchDevice, DeviceRendering>();
  for (const [content, group] of contentGroups(notification, devices)) {
    const maxStops = alreadySent ? undefined : Math.max(0, maxStoppedRenders - notification.stoppedRenders);
    const { data, entryEvent } = notification;
    const results = await renderer.render({ content, data, entryEvent }, group, { projectId, maxStops });
    results.forEach((rendering, index) => {
      renderings.set(group[index]!, rendering);
    });
  }
  const buttons = await renderButtons(renderer, projectId, notification, devices);
  for (const device of devices) {
    const rendering = renderings.get(device)!;
    const failure = 'content' in rendering ? buttons.failures.get(device) : rendering;
    if (failure === undefined && 'content' in rendering) {
      const deviceButtons = buttons.rendered.get(device);
      pushes.rendered.push({ device, content: rendering.content, ...(deviceButtons && { buttons: deviceButtons }) });
    } else if (failure !== undefined) {
      pushes.failed.push(device);
      pushes.failedReason ??= failure.reason;
      if (failure.stopped) notification.stoppedRenders += 1;
    }
  }
  return pushes;
}

/** A silent push shows nothing: its content is not rendered (CONTRACTS §14). */
const silentContent = { title: null, body: '', url: null, imageUrl: null };

/** The devices of a batch by the content they get: the message's own, or one of its localizations. */
function contentGroups(notification: PreparedNotification, devices: BatchDevice[]): Map<MessageContent, BatchDevice[]> {
  const { content, options, localizationKeys } = notification;
  const byKey = new Map<string | null, BatchDevice[]>();
  for (const device of devices) {
    const key = chosenLocalization(localizationKeys, device.language);
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [device]);
    else group.push(device);
  }
  const groups = new Map<MessageContent, BatchDevice[]>();
  for (const [key, group] of byKey) {
    const localization = key === null ? undefined : options.localizations?.[key];
    groups.set(localization === undefined ? content : localizedContent(content, localization), group);
  }
  return groups;
}

export function toOutgoing(notification: PreparedNotification, { device, content, buttons }: Rendered): OutgoingPush {
  const push: OutgoingPush = {
    token: device.pushToken,
    platform: device.platform,
    ...content,
    data: notification.pushData,
    collapseId: notification.options.collapseId ?? notification.id,
  };
  if (device.webPushKeys) push.webPushKeys = device.webPushKeys;
  if (notification.pushOptions !== undefined || buttons !== undefined)
    push.options = { ...notification.pushOptions, ...(buttons && { buttons }) };
  return push;
}
