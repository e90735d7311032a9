import type { TemplateStore } from '../templates/template-store.ts';
import { contentOf, type MessageContent } from '../rendering/message-content.ts';
import { optionsOf, type MessageOptions } from '../schemas/message-options.ts';
import type { SendNotificationBody } from '../schemas/notification.ts';

export async function resolveContent(
  deps: { templates: TemplateStore },
  projectId: string,
  body: SendNotificationBody,
): Promise<{ content: MessageContent; template: TemplateOptions | null }> {
  if (body.templateId === undefined) return { content: contentOf(body), template: null };
  // The template's content is copied: a scheduled or in-flight send is not changed by later edits of the template.
  const template = await deps.templates.find(projectId, body.templateId);
  return { content: contentOf(template), template };
}

interface TemplateOptions {
  buttons?: MessageOptions['buttons'] | null;
  localizations?: MessageOptions['localizations'] | null;
}

/** The options stored with the send: a template's buttons and languages come with its content, as the rest of it does. */
export function optionsWithTemplate(body: SendNotificationBody, template: TemplateOptions | null): MessageOptions {
  const fromTemplate = template && optionsOf({ buttons: template.buttons, localizations: template.localizations });
  return { ...optionsOf(body), ...fromTemplate };
}
