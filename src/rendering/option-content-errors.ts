import type { ErrorDetail } from '../errors.ts';
import { escapePointer, fieldsOf } from '../schemas/validation.ts';
import { contentSyntaxErrors, liquidErrors } from './message-content.ts';

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
      if (typeof url === 'string') details.push(...liquidErrors(url, `/buttons/${index}/url`));
    });
  }
  for (const [language, fields] of Object.entries(fieldsOf(localizations)))
    details.push(...contentSyntaxErrors(fieldsOf(fields), `/localizations/${escapePointer(language)}`));
  return details;
}
