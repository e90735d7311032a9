import type { PushButton } from '../gateways/gateway.ts';
import type { DeviceRendering, RenderFailure, RenderRequest } from '../rendering/render-task.ts';
import type { MessageButton } from '../schemas/message-options.ts';
import type { PreparedNotification } from './prepared-notification.ts';

/** Text with no Liquid markup renders as itself: no render is spent on it. */
const isLiteral = (text: string | undefined) => text === undefined || !/\{[{%]/.test(text);

/**
 * A message's buttons (CONTRACTS §14) as a batch renders them: each one holding Liquid is a render request, its text
 * as a body (never blank) and its url as a url (left out when blank), rendered in the same pool task as the content;
 * a button of plain text is the same for every device and costs nothing.
 */
export class ButtonRenders {
  /** The buttons with Liquid, in the message's order: one render job each per device. */
  readonly requests: RenderRequest[];
  private readonly buttons: MessageButton[];
  /** The same array for every device when no button holds Liquid. */
  private readonly literal: PushButton[] | null;

  constructor(notification: PreparedNotification) {
    this.buttons = notification.options.buttons ?? [];
    const { data, entryEvent } = notification;
    this.requests = this.buttons
      .filter((button) => !isLiteral(button.text) || !isLiteral(button.url))
      .map((button) => ({
        content: { title: null, body: button.text, url: button.url ?? null, imageUrl: null },
        data,
        entryEvent,
      }));
    this.literal = this.requests.length === 0 && this.buttons.length > 0 ? this.buttons.map(literalButton) : null;
  }

  /** One device's buttons from the renderings of its jobs (one per request, in order); undefined when there are none. */
  forDevice(renderings: DeviceRendering[]): PushButton[] | RenderFailure | undefined {
    if (this.buttons.length === 0) return undefined;
    if (this.literal !== null) return this.literal;
    let next = 0;
    const buttons: PushButton[] = [];
    for (const button of this.buttons) {
      if (isLiteral(button.text) && isLiteral(button.url)) {
        buttons.push(literalButton(button));
        continue;
      }
      const rendering = renderings[next++]!;
      if (!('content' in rendering)) return rendering;
      const { body, url } = rendering.content;
      buttons.push({ id: button.id, text: body, ...(url !== null && { url }) });
    }
    return buttons;
  }
}

const literalButton = ({ id, text, url }: MessageButton): PushButton => ({
  id,
  text,
  ...(url !== undefined && { url }),
});
