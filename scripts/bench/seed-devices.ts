import type { Models } from '../../src/models/index.ts';
import { deviceKey, platforms } from '../../src/models/device.ts';
import type { Tags } from '../../src/schemas/tags.ts';

const insertChunk = 5000;

/** Bulk-inserts devices device-0 … device-(count-1), platforms in turn, token bench-<i>, user user-<i>. */
export async function seedDevices(models: Models, projectId: string, count: number, tagsFor: (index: number) => Tags, onProgress?: (done: number) => void): Promise<void> {
  for (let start = 0; start < count; start += insertChunk) {
    const now = new Date();
    const documents = Array.from({ length: Math.min(insertChunk, count - start) }, (_, offset) => {
      const index = start + offset;
      return {
        _id: deviceKey(projectId, `device-${index}`),
        projectId,
        deviceId: `device-${index}`,
        platform: platforms[index % platforms.length]!,
        pushToken: `bench-${index}`,
        userId: `user-${index}`,
        tags: tagsFor(index),
        isSubscribed: true,
        createdAt: now,
        updatedAt: now,
      };
    });
    await models.Device.insertMany(documents, { ordered: false, lean: true });
    onProgress?.(start + documents.length);
  }
}
