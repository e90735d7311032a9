import type { WebPushKeys } from '../gateways/gateway.ts';
import type { Platform } from '../schemas/platforms.ts';

/** What a delivery needs of a device, read once by the fan-out and carried in the delivery batch. */
export interface BatchDevice {
  deviceId: string;
  platform: Platform;
  pushToken: string;
  /** Set for a Web Push subscription, whose endpoint is then the pushToken. */
  webPushKeys?: WebPushKeys | null;
  userId?: string | null;
  tags?: Record<string, unknown>;
  /** Its IANA zone, for local-time sends and quiet hours; null: the project's default. */
  timezone?: string | null;
  /** Read only for a message with localizations, which it chooses among (CONTRACTS §14). */
  language?: string | null;
  /** The experiment variant it gets (CONTRACTS §19), chosen by the fan-out. */
  variant?: string;
}

/** A device as the fan-out reads it: its _id is the natural key (the device model's), by which the fan-out resumes. */
export interface TargetDevice extends BatchDevice {
  _id: string;
}

/** A MongoDB projection of the fields above, with only the tags the message reads. */
export type TargetProjection = Record<string, 1>;

export function targetProjection(tags: 'all' | string[], { language = false } = {}): TargetProjection {
  const projection: TargetProjection = {
    deviceId: 1,
    platform: 1,
    pushToken: 1,
    webPushKeys: 1,
    userId: 1,
    timezone: 1,
  };
  if (language) projection.language = 1;
  if (tags === 'all') projection.tags = 1;
  else for (const name of tags) projection[`tags.${name}`] = 1;
  return projection;
}
