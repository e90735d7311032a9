import type { Models } from '../../src/models/index.ts';
import { deviceKey } from '../../src/models/device.ts';
import { platforms } from '../../src/schemas/platforms.ts';
import type { Tags } from '../../src/schemas/tags.ts';
import type { WebPushKeys } from '../../src/gateways/gateway.ts';
import { maxIdsPerIn } from '../../src/infra/chunks.ts';

const insertChunk = 5000;
/** Chunks in flight at once: the server works on one while the next is built and sent, memory stays a few chunks. */
const chunksInFlight = 2;

export interface SeedOptions {
  /** user-<i / devicesPerUser>; 1 (the default) gives every device its own user. */
  devicesPerUser?: number;
  /** Called after each chunk; by default progress goes to stderr about every 10% (and at the end). */
  onProgress?: (done: number) => void;
  label?: string;
  /** A Web Push subscription for a web device (index), or null to give it a token like the others. */
  webPushFor?: (index: number) => { endpoint: string; keys: WebPushKeys } | null;
  /** A device's language (CONTRACTS §3), or null for none. */
  languageFor?: (index: number) => string | null;
  /** A device's push token; seededToken by default. */
  tokenFor?: (index: number) => string;
  /** A device's IANA zone (CONTRACTS §15), or null for the project's default. */
  timezoneFor?: (index: number) => string | null;
}

/** Runs work on the chunks [start, start + chunkSize) of 0 … count-1, chunksInFlight at a time. */
async function inLanes(count: number, chunkSize: number, work: (start: number, size: number) => Promise<void>) {
  let nextStart = 0;
  async function lane(): Promise<void> {
    while (nextStart < count) {
      const start = nextStart;
      nextStart += chunkSize;
      await work(start, Math.min(chunkSize, count - start));
    }
  }
  await Promise.all(Array.from({ length: chunksInFlight }, lane));
}

/** Progress lines on stderr, at most about ten per seeding, so that --json keeps stdout to one line. */
export function stderrProgress(label: string, total: number): (done: number) => void {
  const startedAt = Date.now();
  let nextReport = 0;
  return (done) => {
    if (done < nextReport && done < total) return;
    nextReport = done + Math.max(insertChunk, Math.ceil(total / 10));
    const seconds = (Date.now() - startedAt) / 1000;
    process.stderr.write(
      `[seed] ${label}: ${done}/${total} devices (${Math.round(done / Math.max(seconds, 0.001))}/s)\n`,
    );
  };
}

/** What every seeded push token starts with (and the id of a seeded Web Push endpoint). */
export const seededTokenPrefix = 'bench-';
/** The push token of the seeded device-<index> (web devices without a subscription from webPushFor included). */
export const seededToken = (index: number) => `${seededTokenPrefix}${index}`;
/** The index of the seeded device whose push token is `token` (seededToken's inverse). */
export const seededIndex = (token: string) => Number(token.slice(seededTokenPrefix.length));

/**
 * Bulk-inserts devices device-0 … device-(count-1), platforms in turn, token seededToken(i), user user-<i>, at
 * revision 1 (written again since they were created, so a registration that changes nothing writes nothing), with the
 * raw driver in unordered chunks of 5,000, two in flight: only those chunks are ever in memory, so 100,000 or 10
 * million devices seed in the same memory.
 */
export async function seedDevices(
  models: Models,
  projectId: string,
  count: number,
  tagsFor: (index: number) => Tags,
  options: SeedOptions | ((done: number) => void) = {},
): Promise<void> {
  const {
    devicesPerUser = 1,
    onProgress = stderrProgress(options instanceof Function ? projectId : (options.label ?? projectId), count),
    webPushFor,
    languageFor,
    tokenFor = seededToken,
    timezoneFor,
  } = options instanceof Function ? { onProgress: options } : options;
  const devices = models.Device.collection;
  let done = 0;
  await inLanes(count, insertChunk, async (start, size) => {
    const now = new Date();
    const documents = Array.from({ length: size }, (_, offset) => {
      const index = start + offset;
      const platform = platforms[index % platforms.length]!;
      const webPush = platform === 'web' ? (webPushFor?.(index) ?? null) : null;
      return {
        _id: deviceKey(projectId, `device-${index}`),
        projectId,
        deviceId: `device-${index}`,
        platform,
        pushToken: webPush?.endpoint ?? tokenFor(index),
        webPushKeys: webPush?.keys ?? null,
        userId: `user-${Math.floor(index / devicesPerUser)}`,
        tags: tagsFor(index),
        ...(languageFor && { language: languageFor(index) }),
        ...(timezoneFor && { timezone: timezoneFor(index) }),
        isSubscribed: true,
        unsubscribedAt: null,
        unsubscribeReason: null,
        rejectedPushToken: null,
        revision: 1,
        createdAt: now,
        updatedAt: now,
      };
    });
    await devices.insertMany(documents as never[], { ordered: false });
    done += documents.length;
    onProgress(done);
  });
}

/**
 * Deletes what seedDevices seeded in the project (device-0 … device-(count-1)) by _id, in `$in`s of maxIdsPerIn: each
 * command answers at once at any audience size, where one deleteMany of a million devices would outlast a socket's
 * timeout.
 */
export async function removeSeededDevices(models: Models, projectId: string, count: number): Promise<void> {
  await inLanes(count, maxIdsPerIn, async (start, size) => {
    const ids = Array.from({ length: size }, (_, offset) => deviceKey(projectId, `device-${start + offset}`));
    await models.Device.collection.deleteMany({ _id: { $in: ids as never[] } });
  });
}
