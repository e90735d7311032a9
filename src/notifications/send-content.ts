import type { TemplateStore } from '../templates/template-store.ts';
import { ApiError, notFound } from '../errors.ts';
import { contentOf, type MessageContent } from '../rendering/message-content.ts';
import { optionsOf, type MessageOptions } from '../schemas/message-options.ts';
import type { SendNotificationBody } from '../schemas/notification.ts';
import { variantContent } from '../experiments/experiment-rules.ts';

export async function resolveContent(
  deps: { templates: TemplateStore },
  projectId: string,
  body: SendNotificationBody,
): Promise<{ content: MessageContent; template: TemplateOptions | null }> {
  // An experiment's first variant stands for its content wherever one content is checked or shown.
  if (body.variants !== undefined) return { content: variantContent(body.variants[0]!), template: null };
  if (body.templateId === undefined) return { content: contentOf(body), template: null };
  // The template's content is copied: a scheduled or in-flight send is not changed by later edits of the template.
  const template = await deps.templates.find(projectId, body.templateId).catch((error: unknown) => {
    if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
    throw notFound(
      `No template "${body.templateId}" in this project. templateId takes a template's id: the "id" that POST /v1/projects/{PROJECT_ID}/templates answers; GET .../templates lists them with their names.`,
    );
  });
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
