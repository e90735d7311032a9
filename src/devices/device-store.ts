import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Models } from '../models/index.ts';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import type { RegisterDeviceBody, UpdateDeviceBody } from '../schemas/device.ts';
import type { Tags } from '../schemas/tags.ts';
import { notFound } from '../http/api-error.ts';
import { withRedisLock } from '../infra/redis-lock.ts';
import { applyTagChanges } from './apply-tag-changes.ts';
import { enqueueEvents } from '../events/ingest-job.ts';
import { firstSessionEvent } from '../events/automatic-events.ts';

type StoredDevice = DeviceDocument;

export function deviceLockKey(prefix: string, projectId: string, deviceId: string): string {
  return `${prefix}:lock:device:${projectId}:${deviceId}`;
}

/**
 * Device writes are read-modify-write under a per-device lock: tag limits are checked on the merged result, and two
 * concurrent changes to one device never overwrite each other, on MongoDB and on FerretDB alike (no transactions).
 */
export class DeviceStore {
  private readonly models: Models;
  private readonly eventIngest: Queue;
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(models: Models, eventIngest: Queue, redis: Redis, prefix: string) {
    this.models = models;
    this.eventIngest = eventIngest;
    this.redis = redis;
    this.prefix = prefix;
  }

  async find(projectId: string, deviceId: string): Promise<StoredDevice> {
    const device = await this.models.Device.findById(deviceKey(projectId, deviceId)).lean<StoredDevice>();
    if (!device) throw notFound(`No device "${deviceId}" in this project.`);
    return device;
  }

  register(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice> {
    return this.locked(projectId, deviceId, async () => {
      const existing = await this.models.Device.findById(deviceKey(projectId, deviceId)).lean<StoredDevice>();
      if (!existing) return this.create(projectId, deviceId, input);
      const resubscribe = !existing.isSubscribed && input.pushToken !== existing.rejectedPushToken;
      return this.save(existing, {
        platform: input.platform,
        pushToken: input.pushToken,
        tags: applyTagChanges(existing.tags as Tags, input.tags),
        ...(input.userId !== undefined && { userId: input.userId }),
        ...(resubscribe && { isSubscribed: true, unsubscribedAt: null, unsubscribeReason: null, rejectedPushToken: null }),
      });
    });
  }

  update(projectId: string, deviceId: string, input: UpdateDeviceBody): Promise<StoredDevice> {
    return this.locked(projectId, deviceId, async () => {
      const existing = await this.find(projectId, deviceId);
      return this.save(existing, {
        tags: applyTagChanges(existing.tags as Tags, input.tags),
        ...(input.userId !== undefined && { userId: input.userId }),
      });
    });
  }

  private locked<T>(projectId: string, deviceId: string, fn: () => Promise<T>): Promise<T> {
    return withRedisLock(this.redis, deviceLockKey(this.prefix, projectId, deviceId), fn);
  }

  /**
   * Creating a device records @first_session. If the event cannot be queued the device is removed again, so a
   * failed request leaves nothing behind and the client's retry creates the device and its event together.
   */
  private async create(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice> {
    const document = await this.models.Device.create({
      _id: deviceKey(projectId, deviceId),
      projectId,
      deviceId,
      platform: input.platform,
      pushToken: input.pushToken,
      userId: input.userId ?? null,
      tags: applyTagChanges({}, input.tags),
    });
    try {
      await enqueueEvents(this.eventIngest, projectId, [{ type: firstSessionEvent, subjectType: 'device', subjectId: deviceId, data: {} }]);
    } catch (error) {
      await this.models.Device.deleteOne({ _id: document._id }).catch(() => undefined);
      throw error;
    }
    return document.toObject() as StoredDevice;
  }

  private async save(existing: StoredDevice, changes: Partial<DeviceDocument>): Promise<StoredDevice> {
    await this.models.Device.updateOne({ _id: existing._id }, { $set: changes });
    return { ...existing, ...changes };
  }
}
