import type { OutgoingPush } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import { renderContent, type MessageContent } from '../rendering/message-content.ts';
import { personalizationScope } from '../rendering/personalization-scope.ts';
import type { PreparedNotification } from './prepared-notification.ts';

export interface Rendered {
  device: BatchDevice;
  content: MessageContent;
}

/**
 * A template that exceeds the render limits for this device's variables fails this device only; so does a body that
 * renders blank for it (renderContent).
 */
export function renderPush(
  notification: PreparedNotification,
  device: BatchDevice,
): Rendered | { renderError: unknown } {
  try {
    const content = renderContent(
      notification.content,
      personalizationScope(device, notification.data, notification.entryEvent),
    );
    return { device, content };
  } catch (renderError) {
    return { renderError };
  }
}

export const isRendered = (push: Rendered | { renderError: unknown }): push is Rendered => 'content' in push;

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
