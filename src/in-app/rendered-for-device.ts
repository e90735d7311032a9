import type { RenderPool } from '../rendering/render-pool.ts';
import type { ScopeDevice } from '../rendering/personalization-scope.ts';
import type { DeviceInAppMessage } from '../schemas/in-app-message.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';
import { gatheredRenders } from './gathered-renders.ts';
import { isVisibleText } from '../schemas/characters.ts';

/** Liquid markup opens with {{ or {%: a text without a brace renders as itself, with nothing to parse or run. */
const hasMarkup = (text: string | null | undefined) => text?.includes('{') === true;

function shown(message: StoredInAppMessage, title: string | null, body: string): DeviceInAppMessage | null {
  if (!isVisibleText(body)) return null;
  return {
    id: message._id,
    layout: message.layout,
    title: title?.trim() ? title : null,
    body,
    imageUrl: message.imageUrl ?? null,
    buttons: message.buttons,
    trigger: message.trigger,
    frequency: message.frequency,
    priority: message.priority ?? 0,
  };
}

/**
 * The messages as the device sees them, in the order given: title and body rendered with the device's variables
 * (CONTRACTS §6, no request data). Liquid runs in the render pool, bounded as every render is, all of the device's
 * messages in one task with those of the project's other devices asking meanwhile (GatheredRenders), never on the
 * event loop serving the SDK. A message is left out when it cannot be shown to
 * this device: a render that fails or is stopped, or a body that renders blank.
 */
export async function renderedForDevice(
  renderer: RenderPool,
  projectId: string,
  messages: StoredInAppMessage[],
  device: ScopeDevice,
): Promise<DeviceInAppMessage[]> {
  const liquid = messages.filter((message) => hasMarkup(message.title) || hasMarkup(message.body));
  const renderings = liquid.length === 0 ? [] : await gatheredRenders(renderer).render(projectId, liquid, device);
  const rendered = new Map(liquid.map((message, index) => [message, renderings[index]!]));
  return messages.flatMap((message) => {
    const rendering = rendered.get(message);
    if (rendering === undefined) return shown(message, message.title ?? null, message.body) ?? [];
    if (!('content' in rendering)) return [];
    return shown(message, rendering.content.title, rendering.content.body) ?? [];
  });
}
