import webpush from 'web-push';
import type { Models } from '../models/index.ts';
import { seal, type Sealed } from '../credentials/cipher.ts';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url: the `applicationServerKey` browsers subscribe with. */
  publicKey: string;
  privateKey: string;
}

export interface SealedVapidKeys {
  publicKey: string;
  privateKey: Sealed;
}

export function newVapidKeys(credentialsKey: Buffer): SealedVapidKeys {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey: seal(privateKey, credentialsKey) };
}

/**
 * The project's VAPID keys as stored, made now for a project created before Web Push existed. Only the first
 * writer's pair is kept (the filter requires none yet), so concurrent first uses agree on one pair: browsers
 * subscribed with the public key only accept pushes signed by its private key. Null when there is no such project.
 */
export async function projectVapidKeys(
  models: Models,
  credentialsKey: Buffer,
  projectId: string,
): Promise<SealedVapidKeys | null> {
  let project = await models.Project.findById(projectId, { vapid: 1 }).lean();
  if (!project) return null;
  if (!project.vapid?.publicKey) {
    await models.Project.updateOne({ _id: projectId, vapid: null }, { $set: { vapid: newVapidKeys(credentialsKey) } });
    project = await models.Project.findById(projectId, { vapid: 1 }).read('primary').lean();
  }
  const vapid = project?.vapid;
  if (!vapid?.publicKey || !vapid.privateKey?.iv || !vapid.privateKey.tag || !vapid.privateKey.data) return null;
  const { iv, tag, data } = vapid.privateKey;
  return { publicKey: vapid.publicKey, privateKey: { iv, tag, data } };
}
