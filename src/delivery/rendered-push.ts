import type { OutgoingPush, PushButton } from '../gateways/gateway.ts';
import type { RenderFailure, RenderRequest } from '../rendering/render-task.ts';
import { chosenLocalization, localizedContent } from '../rendering/localized-content.ts';
import { ButtonRenders } from './rendered-buttons.ts';
import type { BatchDevice } from '../queues/deliver.ts';
import type { MessageContent } from '../rendering/message-content.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import type { UnsentDevice } from './report-outcomes.ts';

export interface Rendered {
  device: BatchDevice;
  content: MessageContent;
  /** The message's buttons as rendered for this device, when it has any. */
  buttons?: PushButton[];
}

export interface RenderedPushes {
  rendered: Rendered[];
  /** Devices whose content could not be rendered, each with its reason (a limit, a blank body, the time bound). */
  failed: UnsentDevice[];
}

/**
 * A message whose render the pool stopped for this many of its devices is too costly for the rest too: they fail
 * without a render. A hostile template sent to every device of a project then holds a render thread for a few times the
 * bound, not the bound times the project's size.
 */
export const maxStoppedRenders = 3;

/**
 * The content of each device's push and its buttons, rendered in the pool as one task for the batch: each device's
 * content in the language it gets (CONTRACTS §14: the localization chosen by its language, from the notification
 * already read), then each of its buttons that holds Liquid. A template that exceeds the render limits or the time
 * bound for a device's variables fails this device only (the pool renders the others again); so does a body that
 * renders blank for it; past maxStoppedRenders, every device left. Pushes already sent are rendered again only to
 * write their history: `alreadySent` lets no earlier stop fail them.
 */
export async function renderPushes(
  renderer: RenderPool,
  projectId: string,
  notification: PreparedNotification,
  devices: BatchDevice[],
  { alreadySent = false } = {},
): Promise<RenderedPushes> {
  const pushes: RenderedPushes = { rendered: [], failed: [] };
  if (notification.options.silent) {
    for (const device of devices) pushes.rendered.push({ device, content: silentContent });
    return pushes;
  }
  const buttons = new ButtonRenders(notification);
  const contents = contentRequests(notification, devices);
  const requests = [...contents.requests, ...buttons.requests];
  const perDevice = 1 + buttons.requests.length;
  const jobs = devices.flatMap((device, index) => [
    { request: contents.chosen[index]!, device },
    ...buttons.requests.map((_, button) => ({ request: contents.requests.length + button, device })),
  ]);
  const maxStops = alreadySent ? undefined : Math.max(0, maxStoppedRenders - notification.stoppedRenders);
  const renderings = await renderer.renderEach(requests, jobs, { projectId, maxStops });
  const fail = (device: BatchDevice, failure: RenderFailure) => {
    pushes.failed.push({ device, outcome: 'failed', reason: failure.reason });
    if (failure.stopped) notification.stoppedRenders += 1;
  };
  for (const [index, device] of devices.entries()) {
    const own = renderings.slice(index * perDevice, (index + 1) * perDevice);
    const rendering = own[0]!;
    const deviceButtons = 'content' in rendering ? buttons.forDevice(own.slice(1)) : undefined;
    if (!('content' in rendering)) fail(device, rendering);
    else if (deviceButtons !== undefined && !Array.isArray(deviceButtons)) fail(device, deviceButtons);
    else pushes.rendered.push({ device, content: rendering.content, ...(deviceButtons && { buttons: deviceButtons }) });
  }
  return pushes;
}

/** A silent push shows nothing: its content is not rendered (CONTRACTS §14). */
const silentContent = { title: null, body: '', url: null, imageUrl: null };

/**
 * The contents a batch's devices get, one render request each (the message's own, or one of its localizations), and
 * for each device the index of its request.
 */
function contentRequests(notification: PreparedNotification, devices: BatchDevice[]) {
  const { content, data, entryEvent, options, localizationKeys } = notification;
  const byKey = new Map<string | null, number>();
  const requests: RenderRequest[] = [];
  const chosen = devices.map((device) => {
    const key = chosenLocalization(localizationKeys, device.language);
    let index = byKey.get(key);
    if (index === undefined) {
      const localization = key === null ? undefined : options.localizations?.[key];
      index =
        requests.push({
          content: localization === undefined ? content : localizedContent(content, localization),
          data,
          entryEvent,
        }) - 1;
      byKey.set(key, index);
    }
    return index;
  });
  return { requests, chosen };
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
