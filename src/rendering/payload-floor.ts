import { TokenKind, type TagToken, type Template } from 'liquidjs';
import type { ErrorDetail } from '../errors.ts';
import type { NotificationData } from '../schemas/notification.ts';
import { childTemplates, parseTemplate, renderTemplate, type ParsedTemplate } from './liquid.ts';
import { contentFields, contentSyntaxErrors, type MessageContent } from './message-content.ts';

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

/**
 * A 400's details when the content cannot fit a push before rendering: each field that takes room (data values are
 * carried in every push), with its share; a template's fields are named through /templateId. Empty when it may fit.
 */
export function payloadFloorErrors(
  content: MessageContent,
  data: NotificationData,
  fromTemplate: boolean,
): ErrorDetail[] {
  const shares: Array<{ path: string; what: string; bytes: number }> = [];
  for (const field of contentFields) {
    const text = content[field];
    if (text === null) continue;
    shares.push({
      path: fromTemplate ? '/templateId' : `/${field}`,
      what: fromTemplate ? `the template's ${field}` : 'it',
      bytes: renderedBytesAtLeast(text),
    });
  }
  const dataBytes = Object.entries(data).reduce(
    (sum, [key, value]) => sum + Buffer.byteLength(key) + (value === null ? 0 : Buffer.byteLength(String(value))),
    0,
  );
  shares.push({ path: '/data', what: 'it', bytes: dataBytes });
  const total = shares.reduce((sum, share) => sum + share.bytes, notificationIdBytes);
  if (total <= maxPushBytes) return [];
  return shares
    .filter((share) => share.bytes > 0)
    .map(({ path, what, bytes }) => ({
      path,
      message: `${what} takes ${bytes} bytes before rendering; with the other fields and the notification id every push carries (${total} bytes) no push service takes more than ${maxPushBytes}`,
    }));
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
  return payloadFloorErrors(content, {}, false);
}
