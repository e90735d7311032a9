import type { Models } from '../models/index.ts';
import { unseal, type Sealed } from './cipher.ts';

/** Enough to tell the services' key from one command run with another, without reading every project. */
const projectsChecked = 20;

function opens(sealed: unknown, key: Buffer): boolean {
  try {
    unseal(sealed as Sealed, key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The newest project's id when this credentials key opens none of the sealed VAPID keys of the newest projects;
 * null when it opens one (or none is stored yet). A project command run with another CREDENTIALS_KEY or STATE_DIR
 * than the services stores secrets they cannot open, and every Web Push or live push of that project then fails,
 * which shows only in their logs and stats. One project stored so by mistake does not make the right key suspect.
 */
export async function projectsSealedWithAnotherKey(models: Models, key: Buffer): Promise<string | null> {
  const newest = await models.Project.find({ 'vapid.privateKey': { $ne: null } }, { vapid: 1 })
    .sort({ createdAt: -1 })
    .limit(projectsChecked)
    .lean();
  if (newest.length === 0) return null;
  return newest.some((project) => opens(project.vapid?.privateKey, key)) ? null : newest[0]!._id;
}
