import type { ErrorDetail } from '../errors.ts';
import { escapePointer, fieldsOf } from '../schemas/validation.ts';
import { contentSyntaxErrors, liquidErrors, type MessageContent } from './message-content.ts';
import { localizedContent } from './localized-content.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import type { NotificationData } from '../schemas/notification.ts';
import type { RenderPool } from './render-pool.ts';
import { trialRenderErrors } from './trial-render.ts';

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

/**
 * The trial render of the content options, as the message's own content gets at save (a render the pool had to stop is
 * a 400): each localization over the message's content, and each button with Liquid, named at their own paths.
 */
export async function optionTrialRenderErrors(
  renderer: RenderPool,
  projectId: string,
  content: MessageContent,
  options: Pick<MessageOptions, 'buttons' | 'localizations'>,
  scope: { data?: NotificationData },
): Promise<ErrorDetail[]> {
  const trials: Array<{ prefix: string; content: MessageContent; fields?: Record<string, string> }> = [];
  for (const [language, localization] of Object.entries(options.localizations ?? {}))
    trials.push({
      prefix: `/localizations/${escapePointer(language)}`,
      content: localizedContent(content, localization),
    });
  for (const [index, button] of (options.buttons ?? []).entries())
    trials.push({
      prefix: `/buttons/${index}`,
      content: { title: null, body: button.text, url: button.url ?? null, imageUrl: null },
      fields: { body: 'text', url: 'url' },
    });
  const details: ErrorDetail[] = [];
  for (const trial of trials)
    for (const { path, message } of await trialRenderErrors(renderer, projectId, trial.content, scope))
      details.push({ path: `${trial.prefix}/${trial.fields?.[path.slice(1)] ?? path.slice(1)}`, message });
  return details;
}
