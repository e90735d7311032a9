import type { ErrorDetail } from '../http/api-error.ts';
import type { NotificationData } from '../schemas/notification.ts';
import { contentFields, contentSyntaxErrors, type MessageContent } from './message-content.ts';

/**
 * What every push service takes at most (APNs and FCM 4096 bytes, Web Push 3993 of payload): content that is larger
 * than this before rendering can reach no device (CONTRACTS §6; a rendered push too large for its gateway fails instead).
 */
export const maxPushBytes = 4096;

/** Every push also carries its notification's id under `notificationId` (a UUID at the shortest), on every gateway. */
const notificationIdBytes = Buffer.byteLength('notificationId') + 36;

/** Tags whose inside may render nothing (a false if, an empty loop) or is never output (comment, capture). */
const blockTags = new Set(['if', 'unless', 'for', 'case', 'capture', 'comment', 'raw', 'tablerow']);
const liquidMarkup = /\{\{[\s\S]*?\}\}|\{%-?\s*(\w+)[\s\S]*?-?%\}/g;

/**
 * The bytes a template renders to at the least: its text outside every output and block, which any rendering
 * keeps. Text inside a block may not render, so it is not counted; nor is a raw block's, so that its content cannot
 * be mistaken for tags.
 */
export function renderedBytesAtLeast(template: string): number {
  let bytes = 0;
  let depth = 0;
  let textStart = 0;
  let skipUntil: string | null = null;
  for (const match of template.matchAll(liquidMarkup)) {
    const tag = match[1];
    if (skipUntil !== null) {
      if (tag === skipUntil) {
        skipUntil = null;
        depth -= 1;
        textStart = match.index + match[0].length;
      }
      continue;
    }
    if (depth === 0) bytes += Buffer.byteLength(template.slice(textStart, match.index));
    textStart = match.index + match[0].length;
    if (tag === undefined) continue;
    if (blockTags.has(tag)) {
      depth += 1;
      if (tag === 'raw' || tag === 'comment') skipUntil = `end${tag}`;
    } else if (tag.startsWith('end') && blockTags.has(tag.slice(3))) depth = Math.max(0, depth - 1);
  }
  if (depth === 0 && skipUntil === null) bytes += Buffer.byteLength(template.slice(textStart));
  return bytes;
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
