import type { MessageContent } from './message-content.ts';
import type { Localization } from '../schemas/message-options.ts';

/**
 * The language keys of a message's localizations, by lower case: BCP 47 tags are compared without regard to case
 * (`pt-br` is `pt-BR`).
 */
export type LocalizationKeys = Map<string, string>;

export function localizationKeys(localizations: Record<string, Localization> | undefined): LocalizationKeys {
  return new Map(Object.keys(localizations ?? {}).map((key) => [key.toLowerCase(), key]));
}

/**
 * CONTRACTS §14: the localization a device gets, by its language: the key equal to it, else the key of its primary
 * language (`pt-BR` → `pt`); null when neither is given (the device gets the message's own content).
 */
export function chosenLocalization(keys: LocalizationKeys, language: string | null | undefined): string | null {
  if (!language || keys.size === 0) return null;
  const tag = language.toLowerCase();
  return keys.get(tag) ?? keys.get(tag.split('-')[0]!) ?? null;
}

/** The message's content with the fields a localization gives in place of its own. */
export function localizedContent(base: MessageContent, localization: Localization): MessageContent {
  return {
    title: localization.title ?? base.title,
    body: localization.body ?? base.body,
    url: localization.url ?? base.url,
    imageUrl: localization.imageUrl ?? base.imageUrl,
  };
}
