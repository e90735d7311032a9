import { parseTemplate, renderTemplate, type ParsedTemplate } from '../rendering/liquid.ts';
import { personalizationScope, type ScopeDevice } from '../rendering/personalization-scope.ts';
import type { DeviceInAppMessage } from '../schemas/in-app-message.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';

const maxParsed = 1000;
/** Parsed once per version of a message (its id and updatedAt), not once per device that asks. */
const parsedTexts = new Map<string, ParsedTemplate>();

/** Liquid markup opens with {{ or {%: a text without a brace renders as itself, with nothing to parse or run. */
const hasMarkup = (text: string) => text.includes('{');

function rendered(message: StoredInAppMessage, field: 'title' | 'body', text: string, scope: object): string {
  return hasMarkup(text) ? renderTemplate(parsed(message, field, text), scope) : text;
}

function parsed(message: StoredInAppMessage, field: 'title' | 'body', text: string): ParsedTemplate {
  const key = `${message._id}:${message.updatedAt.getTime()}:${field}`;
  let template = parsedTexts.get(key);
  if (template === undefined) {
    template = parseTemplate(text);
    if (parsedTexts.size >= maxParsed) parsedTexts.delete(parsedTexts.keys().next().value!);
    parsedTexts.set(key, template);
  }
  return template;
}

/**
 * The message as the device sees it: title and body rendered with the device's variables (CONTRACTS §6, no request
 * data), within the Liquid limits every message renders under. Null when it cannot be shown to this device: a render
 * that hits a limit, or a body that renders blank.
 */
export function renderedForDevice(message: StoredInAppMessage, device: ScopeDevice): DeviceInAppMessage | null {
  const scope = personalizationScope(device, {});
  let title: string | null;
  let body: string;
  try {
    title = message.title ? rendered(message, 'title', message.title, scope) : null;
    body = rendered(message, 'body', message.body, scope);
  } catch {
    return null;
  }
  if (body.trim() === '') return null;
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
