import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import { MicroBatcher } from '../infra/micro-batcher.ts';

/** A burst of reads (after a stall, say) goes out in queries of this many, each answered in one reply. */
const maxKeysPerQuery = 500;

/** The devices of these keys, from the primary, all in the first reply: one more than can match, so no getMore. */
export function devicesByKeyQuery(models: Models, keys: string[]) {
  return models.Device.find(keys.length === 1 ? { _id: keys[0] } : { _id: { $in: keys } })
    .read('primary')
    .batchSize(keys.length + 1)
    .lean<DeviceDocument[]>();
}

/**
 * Reads devices by key, one query for many (a MicroBatcher: `_id` `$in` the keys gathered, at most maxKeysPerQuery a
 * query). Under load, when many requests each wait on a device read, the reads then cost the server a fraction of
 * their number in queries, as a query of many keys costs the server little more than a read of one, which leaves its
 * time to the writes (docs/performance.md, Ingress).
 */
export class DeviceReads {
  private readonly models: Models;
  private readonly reads: MicroBatcher<string, DeviceDocument | null>;

  constructor(models: Models) {
    this.models = models;
    this.reads = new MicroBatcher((keys) => this.read(keys), maxKeysPerQuery);
  }

  /**
   * The device as stored, or null; read from the primary, since a writer guards its update on what it read. Callers
   * asking for the same key at once share one document, which none may change.
   */
  byKey(key: string): Promise<DeviceDocument | null> {
    return this.reads.add(key);
  }

  private async read(keys: string[]): Promise<Array<DeviceDocument | null>> {
    const found = await devicesByKeyQuery(this.models, [...new Set(keys)]);
    const byKey = new Map(found.map((device) => [device._id, device]));
    return keys.map((key) => byKey.get(key) ?? null);
  }
}
