import type { ErrorDetail } from '../errors.ts';
import { escapePointer, fieldsOf } from '../schemas/validation.ts';
import { contentSyntaxErrors, liquidErrors, urlRuleErrors, type MessageContent } from './message-content.ts';
import { localizedContent } from './localized-content.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import type { Trial } from './trial-render.ts';

/**
 * The Liquid of the content options (CONTRACTS §14): each button's text and url and every localized field, checked
 * for syntax and the static limits as the message's own fields are. Fields of the wrong type are skipped (the schema
 * names them), so this also runs on a body that failed the schema.
 */
export function optionContentErrors(body: unknown): ErrorDetail[] {
  const { buttons, localizations } = fieldsOf(body);
  const details: ErrorDetail[] = [];
  if (Array.isArray(buttons)) {
    buttons.forEach((button, index) => {
      const { text, url } = fieldsOf(button);
      if (typeof text === 'string') details.push(...liquidErrors(text, `/buttons/${index}/text`));
      if (typeof url === 'string')
        details.push(...liquidErrors(url, `/buttons/${index}/url`), ...urlRuleErrors(url, `/buttons/${index}/url`));
    });
  }
  const languages = new Map<string, string>();
  for (const [language, fields] of Object.entries(fieldsOf(localizations))) {
    const path = `/localizations/${escapePointer(language)}`;
    details.push(...contentSyntaxErrors(fieldsOf(fields), path));
    const same = languages.get(language.toLowerCase());
    if (same !== undefined)
      details.push({
        path,
        message: `names the same language as "${same}": language tags are compared case-insensitively`,
      });
    languages.set(language.toLowerCase(), language);
  }
  return details;
}

/**
 * The contents of the content options for the trial render at save (trialsErrors), as the message's own content gets:
 * each localization over the message's content, and each button, named at their own paths.
 */
export function optionTrials(
  content: MessageContent,
  options: Pick<MessageOptions, 'buttons' | 'localizations'>,
): Trial[] {
  const trials: Trial[] = [];
  for (const [language, localization] of Object.entries(options.localizations ?? {})) {
    const prefix = `/localizations/${escapePointer(language)}`;
    trials.push({
      content: localizedContent(content, localization),
      detail: (field, message) => ({ path: `${prefix}/${field}`, message }),
    });
  }
  for (const [index, button] of (options.buttons ?? []).entries())
    trials.push({
      content: { title: null, body: button.text, url: button.url ?? null, imageUrl: null },
      detail: (field, message) => ({ path: `/buttons/${index}/${field === 'body' ? 'text' : field}`, message }),
    });
  return trials;
}
