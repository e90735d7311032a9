import type { ErrorDetail } from '../errors.ts';
import { parseTemplate, renderTemplate, type ParsedTemplate } from './liquid.ts';
import { printableObjects } from './printable-objects.ts';
import { staticLimitProblems } from './static-limits.ts';
import { refusedUrlProblem } from '../schemas/url-rule.ts';
import { isVisibleText } from '../schemas/characters.ts';

export const contentFields = ['title', 'body', 'url', 'imageUrl'] as const;
export type ContentField = (typeof contentFields)[number];

/** What a push shows: the body is always there, the rest may be absent. */
export interface MessageContent {
  title: string | null;
  body: string;
  url: string | null;
  imageUrl: string | null;
}

type StoredText = string | null | undefined;

/** The content fields of a stored notification or template, absent ones as null. */
export function contentOf(stored: {
  title?: StoredText;
  body?: StoredText;
  url?: StoredText;
  imageUrl?: StoredText;
}): MessageContent {
  return {
    title: stored.title ?? null,
    body: stored.body ?? '',
    url: stored.url ?? null,
    imageUrl: stored.imageUrl ?? null,
  };
}

export type ParsedContent = { [K in Exclude<ContentField, 'body'>]: ParsedTemplate | null } & { body: ParsedTemplate };

export function parseContent(content: MessageContent): ParsedContent {
  return {
    title: content.title === null ? null : parseTemplate(content.title),
    body: parseTemplate(content.body),
    url: content.url === null ? null : parseTemplate(content.url),
    imageUrl: content.imageUrl === null ? null : parseTemplate(content.imageUrl),
  };
}

/** One detail per field that is not valid Liquid or passes a static limit of Liquid's cost, for a 400 that names them. */
export function contentSyntaxErrors(
  content: Partial<Record<ContentField, string | null | undefined>>,
  pathPrefix = '',
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const field of contentFields) {
    const text = content[field];
    if (typeof text !== 'string') continue;
    details.push(...liquidErrors(text, `${pathPrefix}/${field}`));
    if (field === 'url' || field === 'imageUrl') details.push(...urlRuleErrors(text, `${pathPrefix}/${field}`));
  }
  return details;
}

/**
 * The URL rule on a link as written; one that starts with Liquid (`{{ data.link }}`) is held to it as rendered, for
 * each device (renderContent).
 */
export function urlRuleErrors(text: string, path: string): ErrorDetail[] {
  const problem = refusedUrlProblem(text);
  return problem ? [{ path, message: problem }] : [];
}

/** Why a text is not valid Liquid or passes a static limit of Liquid's cost, named at `path`; none when it is fine. */
export function liquidErrors(text: string, path: string): ErrorDetail[] {
  let parsed: ParsedTemplate;
  try {
    parsed = parseTemplate(text);
  } catch (error) {
    return [{ path, message: `is not a valid Liquid template: ${(error as Error).message}` }];
  }
  return staticLimitProblems(parsed).map((message) => ({ path, message }));
}

/**
 * A stored template's fields that are not valid Liquid as messages are parsed now (one stored before a rule, such as
 * the *_exp filters' removal), named through /templateId as a send or a journey naming it is told; such content would
 * otherwise be accepted and fail every device.
 */
export function templateSyntaxErrors(content: MessageContent): ErrorDetail[] {
  return contentSyntaxErrors(content).map(({ path, message }) => ({
    path: '/templateId',
    message: `its ${path.slice(1)} ${message}`,
  }));
}

/** A render that failed where parsing did not (a time or memory limit, a blank body), with the field it failed on. */
export class FieldRenderError extends Error {
  readonly field: ContentField;

  constructor(field: ContentField, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.field = field;
  }
}

/** `entering` hears of each field before it renders: a render thread tells its watchdog where it is. */
export function renderContent(
  parsed: ParsedContent,
  scope: object,
  entering: (field: ContentField) => void = () => undefined,
): MessageContent {
  const printableScope = printableObjects(scope);
  const render = (field: ContentField, template: ParsedTemplate) => {
    entering(field);
    try {
      return renderTemplate(template, printableScope);
    } catch (error) {
      throw new FieldRenderError(field, error);
    }
  };
  // One that renders blank is left out, as if not given: an empty link to open, an empty image to fetch.
  const renderOptional = (field: Exclude<ContentField, 'body'>) => {
    const rendered = parsed[field] === null ? null : render(field, parsed[field]);
    const problem = rendered !== null && field !== 'title' ? refusedUrlProblem(rendered) : null;
    if (problem) throw new FieldRenderError(field, new Error(`the ${field} as rendered ${problem}`));
    return rendered?.trim() ? rendered : null;
  };
  const body = render('body', parsed.body);
  // A push would show an empty notification (`{{ data.missing }}`), which a send's blank body is refused for; a
  // preview says so as the delivery would.
  if (!isVisibleText(body))
    throw new FieldRenderError(
      'body',
      new Error("the body renders blank with this device's variables; give it a default"),
    );
  return {
    title: renderOptional('title'),
    body,
    url: renderOptional('url'),
    imageUrl: renderOptional('imageUrl'),
  };
}
