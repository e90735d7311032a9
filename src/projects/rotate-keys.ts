import type { Models } from '../models/index.ts';
import type { KeyCache } from '../keys/key-cache.ts';
import { generateKeyPair } from '../keys/api-keys.ts';

export class UnknownProjectError extends Error {
  constructor(projectId: string) {
    super(`No project has the id "${projectId}".`);
    this.name = 'UnknownProjectError';
  }
}

/** Issues new keys; the old ones stop working on every ingress as soon as this returns. */
export async function rotateKeys(models: Models, keyCache: KeyCache, projectId: string) {
  const project = await models.Project.findById(projectId, { serverKeyHash: 1, clientKeyHash: 1, plan: 1 }).lean();
  if (!project) throw new UnknownProjectError(projectId);
  const { apiKey, clientKey, serverKeyHash, clientKeyHash } = generateKeyPair();
  await models.Project.updateOne({ _id: projectId }, { $set: { serverKeyHash, clientKeyHash } });
  await keyCache.revoke([project.serverKeyHash, project.clientKeyHash]);
  return { projectId, apiKey, clientKey, plan: project.plan };
}
