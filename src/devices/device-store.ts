import type { Queue } from 'bullmq';
import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import type { RegisterDeviceBody, UpdateDeviceBody } from '../schemas/device.ts';
import type { Tags } from '../schemas/tags.ts';
import { ApiError, notFound } from '../http/api-error.ts';
import { applyTagChanges } from './apply-tag-changes.ts';
import { enqueueEvents } from '../events/ingest-job.ts';
import { isDuplicateKey } from '../infra/bulk-write-errors.ts';
import { firstSessionEvent } from '../events/automatic-events.ts';

const maxAttempts = 8;

const conflict = () => new ApiError(409, 'conflict', 'The device is being changed by other requests at this moment; retry.');

type StoredDevice = DeviceDocument & { _id: unknown };

/**
 * Device writes are read-modify-write guarded by a revision number: tag limits are checked on the merged result,
 * and two concurrent changes to one device never overwrite each other (no transactions needed).
 */
export class DeviceStore {
  private readonly models: Models;
  private readonly eventIngest: Queue;

  constructor(models: Models, eventIngest: Queue) {
    this.models = models;
    this.eventIngest = eventIngest;
  }

  async find(projectId: string, deviceId: string): Promise<StoredDevice> {
    const device = await this.models.Device.findOne({ projectId, deviceId }).lean<StoredDevice>();
    if (!device) throw notFound(`No device "${deviceId}" in this project.`);
    return device;
  }

  async register(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice> {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const existing = await this.models.Device.findOne({ projectId, deviceId }).lean<StoredDevice>();
      if (!existing) {
        const created = await this.create(projectId, deviceId, input);
        if (created) return created;
        continue;
      }
      const resubscribe = !existing.isSubscribed && input.pushToken !== existing.rejectedPushToken;
      const changes: Partial<DeviceDocument> = {
        platform: input.platform,
        pushToken: input.pushToken,
        tags: applyTagChanges(existing.tags as Tags, input.tags),
        ...(input.userId !== undefined && { userId: input.userId }),
        ...(resubscribe && { isSubscribed: true, unsubscribedAt: null, unsubscribeReason: null, rejectedPushToken: null }),
      };
      const updated = await this.compareAndSet(existing, changes);
      if (updated) return updated;
    }
    throw conflict();
  }

  async update(projectId: string, deviceId: string, input: UpdateDeviceBody): Promise<StoredDevice> {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const existing = await this.find(projectId, deviceId);
      const changes: Partial<DeviceDocument> = {
        tags: applyTagChanges(existing.tags as Tags, input.tags),
        ...(input.userId !== undefined && { userId: input.userId }),
      };
      const updated = await this.compareAndSet(existing, changes);
      if (updated) return updated;
    }
    throw conflict();
  }

  /**
   * Creating a device records @first_session. If the event cannot be queued the device is removed again, so a
   * failed request leaves nothing behind and the client's retry creates the device and its event together.
   */
  private async create(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice | null> {
    let created: StoredDevice;
    try {
      const document = await this.models.Device.create({
        projectId,
        deviceId,
        platform: input.platform,
        pushToken: input.pushToken,
        userId: input.userId ?? null,
        tags: applyTagChanges({}, input.tags),
      });
      created = document.toObject() as StoredDevice;
    } catch (error) {
      if (isDuplicateKey(error)) return null;
      throw error;
    }
    try {
      await enqueueEvents(this.eventIngest, projectId, [{ type: firstSessionEvent, subjectType: 'device', subjectId: deviceId, data: {} }]);
    } catch (error) {
      await this.models.Device.deleteOne({ _id: created._id, revision: created.revision }).catch(() => undefined);
      throw error;
    }
    return created;
  }

  private async compareAndSet(existing: StoredDevice, changes: Partial<DeviceDocument>): Promise<StoredDevice | null> {
    return this.models.Device.findOneAndUpdate(
      { _id: existing._id, revision: existing.revision },
      { $set: changes, $inc: { revision: 1 } },
      { new: true },
    ).lean<StoredDevice>();
  }
}
