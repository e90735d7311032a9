import { TokenKind, type TagToken, type Template } from 'liquidjs';
import type { ErrorDetail } from '../errors.ts';
import type { NotificationData } from '../schemas/notification.ts';
import { childTemplates, parseTemplate, renderTemplate, type ParsedTemplate } from './liquid.ts';
import { contentFields, contentSyntaxErrors, type MessageContent } from './message-content.ts';
import type { Localization, MessageButton } from '../schemas/message-options.ts';
import { escapePointer, fieldsOf } from '../schemas/validation.ts';

/**
 * What every push service takes at most (APNs and FCM 4096 bytes, Web Push 3993 of payload): content that is larger
 * than this before rendering can reach no device (CONTRACTS §6; a rendered push too large for its gateway fails instead).
 */
export const maxPushBytes = 4096;

/** Every push also carries its notification's id under `notificationId` (a UUID at the shortest), on every gateway. */
const notificationIdBytes = Buffer.byteLength('notificationId') + 36;

/**
 * The bytes a template renders to at the least: its text outside every output and tag, as Liquid reads it (with
 * whitespace control applied, and an inline comment being a tag), which any rendering writes. Text inside a block may
 * not render (a false if, an empty loop) or is never written (a comment, a capture), so it is not counted; nor is text
 * after a break or continue, which ends a render outside a loop. A template that does not parse counts nothing here:
 * its syntax error is reported on its own.
 */
export function renderedBytesAtLeast(template: string): number {
  let parsed: ParsedTemplate;
  try {
    parsed = parseTemplate(template);
  } catch {
    return 0;
  }
  const stop = parsed.findIndex(mayEndRender);
  const counted = stop === -1 ? parsed : parsed.slice(0, stop);
  return Buffer.byteLength(
    renderTemplate(
      counted.filter((part) => part.token.kind === TokenKind.HTML),
      {},
    ),
  );
}

/** A break or continue tag, or a tag holding one: read from the parsed tree, so the words in a string or a raw block are not it. */
function mayEndRender(template: Template): boolean {
  const { token } = template;
  if (token.kind === TokenKind.Tag && ['break', 'continue'].includes((token as TagToken).name)) return true;
  return childTemplates(template).some(mayEndRender);
}

/** A part of every push a message makes, and how a 400 names it. */
interface Share {
  path: string;
  what: string;
  bytes: number;
}

/** What every push of a message carries: its content (or a localization's, CONTRACTS §14), data and buttons. */
export interface FloorMessage {
  content: MessageContent;
  data: NotificationData;
  buttons?: MessageButton[] | null;
  localizations?: Record<string, Localization> | null;
}

/** Which parts a template gave: those are named through /templateId. */
export interface FloorSources {
  content: boolean;
  buttons?: boolean;
  localizations?: boolean;
}

const named = (fromTemplate: boolean | undefined, path: string, what: string) =>
  fromTemplate ? { path: '/templateId', what: `the template's ${what}` } : { path, what: 'it' };

/** The data values, carried in every push as they are. */
const dataBytes = (data: NotificationData) =>
  Object.entries(data).reduce(
    (sum, [key, value]) => sum + Buffer.byteLength(key) + (value === null ? 0 : Buffer.byteLength(String(value))),
    0,
  );

/** A button as its JSON carries it, its Liquid counted at the least it renders to. */
const buttonBytes = ({ id, text, url }: MessageButton) =>
  Buffer.byteLength(JSON.stringify({ id, text: '', ...(url !== undefined && { url: '' }) })) +
  renderedBytesAtLeast(text) +
  (url === undefined ? 0 : renderedBytesAtLeast(url));

/** The content fields of the pushes of one language: the localization's where it gives them, else the message's. */
function contentShares(message: FloorMessage, sources: FloorSources, language: string | null): Share[] {
  const localization = language === null ? undefined : message.localizations?.[language];
  return contentFields.flatMap((field) => {
    const localized = localization?.[field];
    const text = localized ?? message.content[field];
    if (text === null) return [];
    const at =
      localized === undefined
        ? named(sources.content, `/${field}`, field)
        : named(sources.localizations, `/localizations/${escapePointer(language!)}/${field}`, `${language} ${field}`);
    return [{ ...at, bytes: renderedBytesAtLeast(text) }];
  });
}

/**
 * A 400's details when the content cannot fit a push before rendering: each field that takes room (data values and
 * buttons are carried in every push), with its share, for the message's own words and for each localization (a device
 * gets one of them); a template's fields are named through /templateId. Empty when every language may fit.
 */
export function payloadFloorErrors(message: FloorMessage, sources: FloorSources): ErrorDetail[] {
  const carried: Share[] = [
    { path: '/data', what: 'it', bytes: dataBytes(message.data) },
    ...(message.buttons ?? []).map((button, index) => ({
      ...named(sources.buttons, `/buttons/${index}`, `button ${index}`),
      bytes: buttonBytes(button),
    })),
  ];
  const details = new Map<string, ErrorDetail>();
  for (const language of [null, ...Object.keys(message.localizations ?? {})]) {
    const shares = [...contentShares(message, sources, language), ...carried];
    const total = shares.reduce((sum, share) => sum + share.bytes, notificationIdBytes);
    if (total <= maxPushBytes) continue;
    for (const { path, what, bytes } of shares)
      if (bytes > 0 && !details.has(path))
        details.set(path, {
          path,
          message: `${what} takes ${bytes} bytes before rendering; with the other fields and the notification id every push ${language === null ? '' : `in ${language} `}carries (${total} bytes) no push service takes more than ${maxPushBytes}`,
        });
  }
  return [...details.values()];
}

/**
 * A template's or a journey's content, as its body may hold it (fields not strings are skipped): each field that is
 * not valid Liquid, else the fields that cannot fit a push before rendering, as a send with that content would be told.
 */
export function storedContentErrors(fields: Partial<Record<string, unknown>>): ErrorDetail[] {
  const syntax = contentSyntaxErrors(fields);
  if (syntax.length > 0) return syntax;
  const text = (field: string) => (typeof fields[field] === 'string' ? (fields[field] as string) : null);
  const content = { title: text('title'), body: text('body') ?? '', url: text('url'), imageUrl: text('imageUrl') };
  return payloadFloorErrors({ content, data: {}, ...storedOptions(fields) }, { content: false });
}

/** The buttons and localizations of a body that may have failed its schema, their string fields only (it names the rest). */
function storedOptions(fields: Partial<Record<string, unknown>>): Pick<FloorMessage, 'buttons' | 'localizations'> {
  const strings = (value: unknown) =>
    Object.fromEntries(Object.entries(fieldsOf(value)).filter(([, field]) => typeof field === 'string'));
  const buttons = (Array.isArray(fields.buttons) ? fields.buttons.map(strings) : []).filter(
    (button) => typeof button.id === 'string' && typeof button.text === 'string',
  );
  const localizations = Object.entries(fieldsOf(fields.localizations)).map(([tag, fields]) => [tag, strings(fields)]);
  return {
    buttons: buttons as MessageButton[],
    localizations: Object.fromEntries(localizations) as Record<string, Localization>,
  };
}
