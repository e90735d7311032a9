import type { AnyBulkWriteOperation } from 'mongoose';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import type { ImportRow, LineError } from '../schemas/device-import.ts';
import { canonicalLanguageTag } from '../schemas/request-formats.ts';
import { ApiError } from '../errors.ts';
import { applyTagChanges } from '../devices/apply-tag-changes.ts';
import { changesNothing } from '../devices/change-device.ts';
import { noSubscriptionReason, pushAddress, registration, subscribedCount } from '../devices/registration-fields.ts';

export interface LinedRow {
  line: number;
  row: ImportRow;
}

export interface BatchPlan {
  writes: AnyBulkWriteOperation<DeviceDocument>[];
  created: number;
  updated: number;
  /** The change in the project's subscribed devices, for the overview. */
  subscribed: number;
  errors: LineError[];
}

const importedUnsubscribedReason = 'imported as unsubscribed';

/** The subscription state a row sets explicitly, when the device is not in it already. */
function subscriptionFields(row: ImportRow, subscribedNow: boolean, now: Date): Partial<DeviceDocument> {
  if (row.isSubscribed === subscribedNow) return {};
  return row.isSubscribed
    ? { isSubscribed: true, unsubscribedAt: null, unsubscribeReason: null, rejectedPushToken: null }
    : { isSubscribed: false, unsubscribedAt: now, unsubscribeReason: importedUnsubscribedReason };
}

/** A device the row creates: as a registration would, at revision 1 (not 0: no @first_session to undo). */
function createdDevice(projectId: string, row: ImportRow, now: Date): DeviceDocument {
  const address = pushAddress(row);
  const subscribed = row.isSubscribed ?? address.pushToken !== null;
  return {
    _id: deviceKey(projectId, row.id),
    projectId,
    deviceId: row.id,
    platform: row.platform,
    ...address,
    userId: row.userId ?? null,
    tags: applyTagChanges({}, row.tags),
    language: row.language ? canonicalLanguageTag(row.language) : null,
    timezone: row.timezone ?? null,
    isSubscribed: subscribed,
    unsubscribedAt: subscribed ? null : now,
    unsubscribeReason: subscribed
      ? null
      : address.pushToken === null
        ? noSubscriptionReason
        : importedUnsubscribedReason,
    rejectedPushToken: null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  } as DeviceDocument;
}

/** The device after the row, or null when the row leaves it as it is. */
function updatedDevice(current: DeviceDocument, row: ImportRow, now: Date): DeviceDocument | null {
  const registered = registration(row)(current);
  // A row's own isSubscribed decides the state in place of registration's rules, and only when it changes.
  const { isSubscribed, unsubscribedAt, unsubscribeReason, rejectedPushToken, ...address } = registered;
  const fields =
    row.isSubscribed === undefined
      ? registered
      : { ...address, ...subscriptionFields(row, current.isSubscribed !== false, now) };
  const tags = applyTagChanges(current.tags ?? {}, row.tags);
  if (changesNothing(current, fields, tags)) return null;
  return { ...current, ...fields, tags, updatedAt: now };
}

/**
 * The writes that bring the batch's devices (`existing`, read by _id just before) to what its rows say, one per
 * device however many rows name it: an insert for a new device, a replace guarded by the revision read for another,
 * nothing for a row that changes nothing, so that applying the same rows again writes nothing. A row that would
 * leave its device over the tag limit is an error of its line, and changes nothing.
 */
export function planBatch(projectId: string, rows: LinedRow[], existing: DeviceDocument[], now: Date): BatchPlan {
  const before = new Map(existing.map((device) => [device._id, device]));
  const after = new Map<string, DeviceDocument>();
  const plan: BatchPlan = { writes: [], created: 0, updated: 0, subscribed: 0, errors: [] };
  for (const { line, row } of rows) {
    const key = deviceKey(projectId, row.id);
    const current = after.get(key) ?? before.get(key);
    try {
      const next = current ? updatedDevice(current, row, now) : createdDevice(projectId, row, now);
      if (!next) continue;
      if (current) plan.updated += 1;
      else plan.created += 1;
      after.set(key, next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      plan.errors.push({ line, message: error.message });
    }
  }
  for (const [key, device] of after) {
    const original = before.get(key);
    plan.subscribed += subscribedCount(device) - (original ? subscribedCount(original) : 0);
    plan.writes.push(
      original
        ? {
            replaceOne: {
              filter: { _id: key, revision: original.revision ?? null },
              replacement: { ...device, revision: (original.revision ?? 0) + 1 },
            },
          }
        : { insertOne: { document: device } },
    );
  }
  return plan;
}
