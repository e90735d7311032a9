import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import { typedContent, type ContentMode, type InlineContent } from './content-fields.tsx';
import { experimentFields, type ExperimentDraft } from './experiment-draft.ts';
import { optionFields, type OptionsDraft } from './options-draft.ts';

export type Message = Omit<SendNotificationBody, 'targetType' | 'targetIds'>;

/** The request's message from the send screen: a template, typed content or variants, with the options chosen. */
export function messageOf(
  mode: ContentMode,
  chosenTemplate: string,
  content: InlineContent,
  options: OptionsDraft,
  experiment: ExperimentDraft,
): Message {
  const chosen = optionFields(options);
  if (mode === 'variants') return { ...experimentFields(experiment), ...chosen };
  // A silent push has no title or body, and carries data (here only the notification's id).
  if (chosen.silent) return { ...chosen, data: {} };
  return { ...(mode === 'template' ? { templateId: chosenTemplate } : typedContent(content)), ...chosen };
}

/** What the preview renders: the message's content (an experiment's first variant), or null when there is none. */
export function previewContent(message: Message) {
  const { templateId, localizations, variants, silent } = message;
  if (silent) return null;
  if (templateId !== undefined) return templateId === '' ? null : { templateId, localizations };
  const { title, body, url, imageUrl } = variants?.[0] ?? message;
  return body === undefined || body === '' ? null : { title, body, url, imageUrl, localizations };
}
