import type { Models } from '../models/index.ts';
import { seal } from '../credentials/cipher.ts';
import type { ApnsCredentials, FcmServiceAccount } from '../credentials/push-credentials.ts';
import { UnknownProjectError } from './rotate-keys.ts';

export async function setPushCredentials(
  models: Models,
  key: Buffer,
  projectId: string,
  credentials: { fcm?: FcmServiceAccount; apns?: ApnsCredentials },
): Promise<{ fcm: boolean; apns: boolean }> {
  const update: Record<string, unknown> = {};
  if (credentials.fcm) update['credentials.fcm'] = seal(JSON.stringify(credentials.fcm), key);
  if (credentials.apns) update['credentials.apns'] = seal(JSON.stringify(credentials.apns), key);
  const result = await models.Project.updateOne({ _id: projectId }, { $set: update });
  if (result.matchedCount === 0) throw new UnknownProjectError(projectId);
  // What the project holds now: setting one gateway's credentials keeps the other's.
  const stored = await models.Project.findById(projectId, { credentials: 1 }).lean();
  return { fcm: Boolean(stored?.credentials?.fcm), apns: Boolean(stored?.credentials?.apns) };
}
