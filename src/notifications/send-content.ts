import type { TemplateStore } from '../templates/template-store.ts';
import type { Deps } from '../deps.ts';
import { ApiError, invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import { contentOf, templateSyntaxErrors, type MessageContent } from '../rendering/message-content.ts';
import { optionsOf, type MessageOptions } from '../schemas/message-options.ts';
import type { SendNotificationBody } from '../schemas/notification.ts';
import type { StoredVariant, Variant } from '../schemas/experiment.ts';
import { payloadFloorErrors } from '../rendering/payload-floor.ts';
import { optionTrials } from '../rendering/option-content-errors.ts';
import { contentTrial, trialsErrors, type Trial } from '../rendering/trial-render.ts';

type ContentDeps = Pick<Deps, 'renderer'> & { templates: TemplateStore };

/** What a message's content comes from: a template, or its own fields; buttons and languages beside either. */
type ContentSource = Pick<SendNotificationBody, 'templateId' | 'title' | 'body' | 'url' | 'imageUrl'> &
  Pick<MessageOptions, 'buttons' | 'localizations'>;

interface TemplateOptions {
  buttons?: MessageOptions['buttons'] | null;
  localizations?: MessageOptions['localizations'] | null;
}

interface Resolved {
  content: MessageContent;
  template: TemplateOptions | null;
}

async function resolveContent(deps: ContentDeps, projectId: string, source: ContentSource): Promise<Resolved> {
  if (source.templateId === undefined) return { content: contentOf(source), template: null };
  // The template's content is copied: a scheduled or in-flight send is not changed by later edits of the template.
  const template = await deps.templates.find(projectId, source.templateId).catch((error: unknown) => {
    if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
    throw notFound(
      `No template "${source.templateId}" in this project. templateId takes a template's id: the "id" that POST /v1/projects/{PROJECT_ID}/templates answers; GET .../templates lists them with their names.`,
    );
  });
  return { content: contentOf(template), template };
}

/** The options stored with the send: a template's buttons and languages come with its content, as the rest of it does. */
function optionsWithTemplate(
  source: Partial<Record<string, unknown>>,
  template: TemplateOptions | null,
): MessageOptions {
  const fromTemplate = template && optionsOf({ buttons: template.buttons, localizations: template.localizations });
  return { ...optionsOf(source), ...fromTemplate };
}

const at = (prefix: string, details: ErrorDetail[]) =>
  details.map((detail) => ({ ...detail, path: prefix + detail.path }));

const prefixedTrial = (prefix: string, trial: Trial): Trial => ({
  content: trial.content,
  detail: (field, message) => at(prefix, [trial.detail(field, message)])[0]!,
});

export interface CheckedContent {
  content: MessageContent;
  options: MessageOptions;
  /** An experiment's variants as stored, each content resolved as the send's own would be. */
  variants?: StoredVariant[];
}

/**
 * A send's content, or each of its variants' (CONTRACTS §19, named under /variants/N), resolved and checked as one:
 * its template exists and is valid Liquid as parsed now, it fits a push before rendering, and every content (each
 * variant's own, each localization, each button) renders in time in one trial bounded in total. The first variant
 * stands for the send's content wherever one content is shown.
 */
export async function checkedContent(
  deps: ContentDeps,
  projectId: string,
  body: SendNotificationBody,
): Promise<CheckedContent> {
  const sources: Array<ContentSource & { name?: string }> = body.variants ?? [body];
  const prefix = (index: number) => (body.variants === undefined ? '' : `/variants/${index}`);
  const resolved = await Promise.all(sources.map((source) => resolveContent(deps, projectId, source)));
  const templateErrors = resolved.flatMap(({ content }, index) =>
    sources[index]!.templateId === undefined ? [] : at(prefix(index), templateSyntaxErrors(content)),
  );
  if (templateErrors.length > 0)
    throw invalidRequest('The template is not valid Liquid; see details for each field.', templateErrors);
  const options = resolved.map(({ template }, index) => optionsWithTemplate(sources[index]!, template));
  const tooLarge = resolved.flatMap(({ content, template }, index) =>
    at(
      prefix(index),
      payloadFloorErrors(
        { content, data: body.data ?? {}, ...options[index] },
        {
          content: sources[index]!.templateId !== undefined,
          buttons: !!template?.buttons,
          localizations: !!template?.localizations,
        },
      ),
    ),
  );
  if (tooLarge.length > 0)
    throw invalidRequest(
      'The notification cannot fit in a push (about 4 KB) even before rendering; see details for each field.',
      tooLarge,
    );
  // A template's own buttons and languages were rendered when it was saved.
  const trials = resolved.flatMap(({ content }, index) =>
    [contentTrial(content, sources[index]!.templateId !== undefined), ...optionTrials(content, sources[index]!)].map(
      (trial) => prefixedTrial(prefix(index), trial),
    ),
  );
  const unrenderable = body.silent ? [] : await trialsErrors(deps.renderer, projectId, trials, { data: body.data });
  if (unrenderable.length > 0) throw invalidRequest('The content could not be rendered in time.', unrenderable);
  if (body.variants === undefined) return { content: resolved[0]!.content, options: options[0]! };
  const variants = body.variants.map((variant, index) => storedVariant(variant, resolved[index]!, options[index]!));
  return { content: resolved[0]!.content, options: optionsOf(body), variants };
}

function storedVariant(variant: Variant, { content }: Resolved, options: MessageOptions): StoredVariant {
  const { buttons, localizations } = options;
  return {
    name: variant.name,
    ...(variant.templateId !== undefined && { templateId: variant.templateId }),
    ...content,
    ...(buttons && { buttons }),
    ...(localizations && { localizations }),
  };
}
