import type { ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';
import { contentSyntaxErrors } from '../rendering/message-content.ts';
import { parseIsoTime } from '../schemas/iso-time.ts';
import type { InAppFrequency } from '../schemas/in-app-message.ts';
import { dayMs } from '../infra/utc-day.ts';

function buttonErrors(buttons: unknown): ErrorDetail[] {
  if (!Array.isArray(buttons)) return [];
  const seen = new Set<unknown>();
  return buttons.flatMap((button, index) => {
    const fields = fieldsOf(button);
    const details: ErrorDetail[] = [];
    if (fields.action === 'url' && fields.url === undefined)
      details.push({ path: `/buttons/${index}/url`, message: 'is required when the action is "url"' });
    if (seen.has(fields.id))
      details.push({ path: `/buttons/${index}/id`, message: "must differ from the other button's id" });
    seen.add(fields.id);
    return details;
  });
}

function scheduleErrors(startAt: unknown, endAt: unknown): ErrorDetail[] {
  if (typeof startAt !== 'string' || typeof endAt !== 'string') return [];
  const start = parseIsoTime(startAt);
  const end = parseIsoTime(endAt);
  if (start === null || end === null || end > start) return [];
  return [{ path: '/endAt', message: 'must be after startAt' }];
}

/**
 * What the schema cannot say; also read on a body that failed it, each check on the fields it can read, so that one
 * 400 names every offending field. Only the title and the body are Liquid: a url is opened as it is written.
 */
export function inAppMessageErrors(body: unknown): ErrorDetail[] {
  const fields = fieldsOf(body);
  return [
    ...buttonErrors(fields.buttons),
    ...scheduleErrors(fields.startAt, fields.endAt),
    ...contentSyntaxErrors({ title: fields.title as string | undefined, body: fields.body as string | undefined }),
  ];
}

/** When the device last reported @iam_displayed for each message, by message id, as its document keeps it. */
export type LastDisplayed = Partial<Record<string, Date>>;

/** once: never again; everyDays: not within that many days of the last showing; always: each time. */
export function frequencyAllows(frequency: InAppFrequency, last: Date | undefined, now: Date): boolean {
  if (last === undefined || frequency === 'always') return true;
  if (frequency === 'once') return false;
  return now.getTime() - last.getTime() >= frequency.everyDays * dayMs;
}
