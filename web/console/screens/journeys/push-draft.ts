import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import { blankContent, type ContentMode, type InlineContent } from '../send/content-fields.tsx';
import { blankDelivery, type DeliveryDraft, deliveryBody } from '../send/delivery-fields.tsx';
import { blankOptions, type OptionsDraft, optionFields, platformNames } from '../send/options-draft.ts';

/** A push step as the send screen's sections edit it; `kept` holds what they do not show (data). */
export interface PushDraft {
  mode: ContentMode;
  templateId: string;
  content: InlineContent;
  options: OptionsDraft;
  delivery: DeliveryDraft;
  kept: Record<string, unknown>;
}

export const newPushDraft = (): PushDraft => ({
  mode: 'inline',
  templateId: '',
  content: { ...blankContent },
  options: { ...blankOptions },
  delivery: { ...blankDelivery },
  kept: {},
});

const shown = new Set([
  ...['id', 'type', 'next', 'templateId', 'title', 'body', 'url', 'imageUrl', 'localizations', 'buttons'],
  ...['priority', 'ttl', 'collapseId', 'badge', 'sound', 'platforms', 'silent'],
  ...['localTime', 'throttlePerMinute', 'ignoreQuietHours', 'ignoreFrequencyCap'],
]);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const number = (value: unknown) => (typeof value === 'number' ? String(value) : '');

export function pushDraftOf(step: Record<string, unknown>): PushDraft {
  const message = step as Partial<SendNotificationBody>;
  const localizations = Object.entries(message.localizations ?? {});
  return {
    mode: typeof message.templateId === 'string' ? 'template' : 'inline',
    templateId: text(message.templateId),
    content: {
      title: text(message.title),
      body: text(message.body),
      url: text(message.url),
      imageUrl: text(message.imageUrl),
    },
    options: {
      priority: message.priority ?? '',
      ttl: number(message.ttl),
      collapseId: text(message.collapseId),
      badge: number(message.badge),
      sound: text(message.sound),
      platforms: message.platforms
        ? platformNames.filter((name) => message.platforms!.includes(name))
        : [...platformNames],
      silent: message.silent === true,
      buttons: (message.buttons ?? []).map((button) => ({ id: button.id, text: button.text, url: text(button.url) })),
      languages: localizations.map(([tag, fields]) => ({ tag, title: text(fields.title), body: text(fields.body) })),
    },
    delivery: {
      localTime: text(message.localTime),
      throttlePerMinute: number(message.throttlePerMinute),
      ignoreQuietHours: message.ignoreQuietHours === true,
      ignoreFrequencyCap: message.ignoreFrequencyCap === true,
    },
    kept: Object.fromEntries(Object.entries(step).filter(([field]) => !shown.has(field))),
  };
}

/** The push step's content and options as a send would carry them. */
export function pushFieldsOf(draft: PushDraft): Record<string, unknown> {
  const options = optionFields(draft.options);
  const { data, ...kept } = draft.kept;
  // A silent push has no title or body, and carries data.
  if (options.silent) return { ...kept, data: data ?? {}, ...options, ...deliveryBody(draft.delivery) };
  const content =
    draft.mode === 'template'
      ? { templateId: draft.templateId }
      : Object.fromEntries(Object.entries(draft.content).filter(([field, value]) => field === 'body' || value !== ''));
  return { ...kept, ...(data !== undefined && { data }), ...content, ...options, ...deliveryBody(draft.delivery) };
}
