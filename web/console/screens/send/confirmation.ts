import type { ApiFailure } from '../../api.ts';
import { formatTime } from '../../ui.tsx';

/** A datetime-local value, a wall-clock time in this browser's zone, as the instant the API takes; null when blank. */
export function scheduledInstant(local: string): string | null {
  const time = new Date(local);
  return local === '' || Number.isNaN(time.getTime()) ? null : time.toISOString();
}

export const browserTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The question before a send, from the audience's count as it stands and when the send goes. */
export function confirmationText(count: number | undefined, counting: boolean, sendAt: string | null): string {
  if (counting) return 'Counting the audience…';
  const devices = count === undefined ? undefined : `${count} subscribed device${count === 1 ? '' : 's'}`;
  if (sendAt === null) {
    if (count === 0) return 'No subscribed device would get it: choose another audience.';
    return devices === undefined ? 'Send it now? The audience could not be counted.' : `Send it to ${devices} now?`;
  }
  const now = devices === undefined ? 'it could not be counted now' : `it has ${devices} now`;
  return `Schedule it for ${formatTime(sendAt)}? The audience is read again then; ${now}.`;
}

/** The API's message and, for a 400, what each detail says, named by the field's last path segment (deviceId). */
export function failureText(error: ApiFailure): string {
  const details = error.details.map((detail) => `${detail.path.split('/').at(-1) || 'request'} ${detail.message}`);
  return [error.message, ...details].join(' ');
}
