import type { Models } from '../models/index.ts';
import type { KeyCache } from '../keys/key-cache.ts';
import { generateKeyPair } from '../keys/api-keys.ts';

export class UnknownProjectError extends Error {
  constructor(projectId: string) {
    super(`No project has the id "${projectId}".`);
    this.name = 'UnknownProjectError';
  }
}

/**
 * Issues new keys; the old ones stop working on every ingress as soon as this returns. The keys revoked are those the
 * write itself replaced, read in the same atomic update: two rotations at once (a double click) each revoke what they
 * replaced, so only the last one's keys work.
 */
export async function rotateKeys(models: Models, keyCache: KeyCache, projectId: string) {
  const { apiKey, clientKey, serverKeyHash, clientKeyHash } = generateKeyPair();
  const replaced = await models.Project.findOneAndUpdate(
    { _id: projectId },
    { $set: { serverKeyHash, clientKeyHash } },
    { returnDocument: 'before', projection: { serverKeyHash: 1, clientKeyHash: 1, plan: 1 } },
  ).lean();
  if (!replaced) throw new UnknownProjectError(projectId);
  await keyCache.revoke([replaced.serverKeyHash, replaced.clientKeyHash]);
  return { projectId, apiKey, clientKey, plan: replaced.plan };
}
