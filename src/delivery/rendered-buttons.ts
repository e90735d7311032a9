import type { PushButton } from '../gateways/gateway.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { DeviceRendering } from '../rendering/render-task.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import type { MessageButton } from '../schemas/message-options.ts';
import type { PreparedNotification } from './prepared-notification.ts';

type Failure = Exclude<DeviceRendering, { content: unknown }>;

export interface RenderedButtons {
  /** Each device's buttons; absent when the message has none. */
  rendered: Map<BatchDevice, PushButton[]>;
  /** Devices whose button text or url hit a render limit or rendered blank. */
  failures: Map<BatchDevice, Failure>;
}

/** Text with no Liquid markup renders as itself: no render task is spent on it. */
const isLiteral = (text: string | undefined) => text === undefined || !/\{[{%]/.test(text);

/**
 * The message's buttons for each device, their text and url rendered in the pool as the content is (the text as a body:
 * never blank, the url as a url: left out when blank). A button of plain text costs no render.
 */
export async function renderButtons(
  renderer: RenderPool,
  projectId: string,
  notification: PreparedNotification,
  devices: BatchDevice[],
): Promise<RenderedButtons> {
  const buttons = notification.options.buttons ?? [];
  const result: RenderedButtons = { rendered: new Map(), failures: new Map() };
  if (buttons.length === 0) return result;
  const perButton = await Promise.all(
    buttons.map((button) => renderButton(renderer, projectId, notification, button, devices)),
  );
  devices.forEach((device, index) => {
    const deviceButtons: PushButton[] = [];
    for (const renderings of perButton) {
      const rendering = renderings[index]!;
      if ('content' in rendering) deviceButtons.push(rendering.content);
      else if (!result.failures.has(device)) result.failures.set(device, rendering);
    }
    result.rendered.set(device, deviceButtons);
  });
  return result;
}

type ButtonRendering = { content: PushButton } | Failure;

async function renderButton(
  renderer: RenderPool,
  projectId: string,
  notification: PreparedNotification,
  button: MessageButton,
  devices: BatchDevice[],
): Promise<ButtonRendering[]> {
  const literal = { id: button.id, text: button.text, ...(button.url !== undefined && { url: button.url }) };
  if (isLiteral(button.text) && isLiteral(button.url)) return devices.map(() => ({ content: literal }));
  const content = { title: null, body: button.text, url: button.url ?? null, imageUrl: null };
  const { data, entryEvent } = notification;
  const renderings = await renderer.render({ content, data, entryEvent }, devices, { projectId });
  return renderings.map((rendering) => {
    if (!('content' in rendering)) return rendering;
    const { body, url } = rendering.content;
    return { content: { id: button.id, text: body, ...(url !== null && { url }) } };
  });
}
