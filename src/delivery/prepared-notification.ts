import type { Models } from '../models/index.ts';
import type { NotificationData } from '../schemas/notification.ts';
import { contentOf, type MessageContent } from '../rendering/message-content.ts';
import type { EntryEvent } from '../schemas/events.ts';
import type { SendTiming } from '../schemas/send-timing.ts';
import { optionsOf, type MessageOptions } from '../schemas/message-options.ts';
import type { PushOptions } from '../gateways/gateway.ts';
import { localizationKeys, type LocalizationKeys } from '../rendering/localized-content.ts';

/** A notification ready to render (in the render pool, which parses its templates), its data in push-payload form. */
export interface PreparedNotification {
  id: string;
  createdAt: Date;
  /** Its sendAt, else its creation: a local-time send goes at the next occurrence of its local time from then. */
  sendFrom: Date;
  content: MessageContent;
  data: NotificationData;
  /** The event that triggered a journey's send; null for other sends. */
  entryEvent: EntryEvent | null;
  pushData: Record<string, string>;
  /** Devices of this notification whose render the pool stopped in this process, counted across its batches. */
  stoppedRenders: number;
  /** When its pushes may go (CONTRACTS §15): local time, throttle, and the quiet-hours and cap opt-outs. */
  timing: SendTiming;
  /** The message options that were set (CONTRACTS §14). */
  options: MessageOptions;
  localizationKeys: LocalizationKeys;
  /** The options every push of it carries as they are; undefined when it sets none. */
  pushOptions: PushOptions | undefined;
  /** The experiment variant whose content this is (CONTRACTS §19). */
  variant?: string;
}

/** The options a gateway maps, as the message set them: buttons are rendered per device and added then. */
function pushOptionsOf({
  ttl,
  priority,
  badge,
  sound,
  androidChannelId,
  silent,
}: MessageOptions): PushOptions | undefined {
  const options: PushOptions = { ttl, priority, badge, sound, androidChannelId, silent };
  for (const key of Object.keys(options) as Array<keyof PushOptions>)
    if (options[key] === undefined) delete options[key];
  return Object.keys(options).length === 0 ? undefined : options;
}

/** Push payload data is a string map on both gateways; notificationId lets the app report @clicked. */
function toPushData(id: string, data: NotificationData): Record<string, string> {
  const pushData: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) if (value !== null) pushData[key] = String(value);
  pushData.notificationId = id;
  return pushData;
}

/**
 * A notification's content never changes after it is accepted, so each worker process keeps the prepared form of the
 * most recently used ones instead of reading them again for every batch.
 */
export class PreparedNotifications {
  private readonly models: Models;
  private readonly capacity: number;
  private readonly entries = new Map<string, Promise<PreparedNotification | null>>();

  constructor(models: Models, capacity = 500) {
    this.models = models;
    this.capacity = capacity;
  }

  /** With a variant: the notification with that variant's content. */
  get(notificationId: string, variant?: string): Promise<PreparedNotification | null> {
    const key = variant === undefined ? notificationId : `${notificationId}\n${variant}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const loading = this.load(notificationId, variant);
    this.entries.set(key, loading);
    loading.then(
      (prepared) => prepared ?? this.entries.delete(key),
      () => this.entries.delete(key),
    );
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return loading;
  }

  private async load(notificationId: string, variant?: string): Promise<PreparedNotification | null> {
    const notification = await this.models.Notification.findById(notificationId, {
      title: 1,
      body: 1,
      url: 1,
      imageUrl: 1,
      data: 1,
      createdAt: 1,
      sendAt: 1,
      entryEvent: 1,
      timing: 1,
      options: 1,
      variants: 1,
    }).lean();
    if (!notification) return null;
    const chosen = notification.variants?.find((candidate) => candidate.name === variant);
    const data = notification.data ?? {};
    // A variant's buttons and languages take the place of the send's, which has none of its own (CONTRACTS §19).
    const options = {
      ...notification.options,
      ...(chosen && optionsOf({ buttons: chosen.buttons, localizations: chosen.localizations })),
    };
    return {
      id: notificationId,
      createdAt: notification.createdAt,
      sendFrom: notification.sendAt ?? notification.createdAt,
      content: contentOf(chosen ?? notification),
      data,
      entryEvent: notification.entryEvent ?? null,
      pushData: toPushData(notificationId, data),
      stoppedRenders: 0,
      timing: notification.timing ?? {},
      options,
      localizationKeys: localizationKeys(options.localizations),
      pushOptions: pushOptionsOf(options),
      ...(chosen && { variant: chosen.name }),
    };
  }
}
