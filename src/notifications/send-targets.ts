import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { deviceKey } from '../models/device.ts';
import type { SendNotificationBody } from '../schemas/notification.ts';

async function knownTargets(
  deps: Pick<Deps, 'models'>,
  projectId: string,
  targetType: 'segment' | 'device',
  targetIds: string[],
): Promise<Set<string>> {
  if (targetType === 'segment') {
    const found = await deps.models.Segment.find({ projectId, _id: { $in: targetIds } }, { _id: 1 }).lean();
    return new Set(found.map((segment) => segment._id));
  }
  const keys = targetIds.map((deviceId) => deviceKey(projectId, deviceId));
  const found = await deps.models.Device.find({ _id: { $in: keys } }, { deviceId: 1 }).lean();
  return new Set(found.map((device) => device.deviceId));
}

/** What a 404 for an unknown target teaches: what targetIds take, and where to find them. */
const targetsTake = {
  segment:
    'With targetType "segment", targetIds take segment ids (not names): the "id" that POST /v1/projects/{PROJECT_ID}/segments answers; GET .../segments lists them with their names.',
  device:
    'With targetType "device", targetIds take the device ids the SDK registered; GET /v1/projects/{PROJECT_ID}/devices lists them, or send to a userId with targetType "userId".',
};

/** CONTRACTS §1: an unknown segment or device is a 404; a user id with no devices is a 200 that sends nothing (§6). */
export async function assertTargetsExist(
  deps: Pick<Deps, 'models'>,
  projectId: string,
  { targetType }: SendNotificationBody,
  targetIds: string[],
): Promise<void> {
  if (targetType === 'userId') return;
  const known = await knownTargets(deps, projectId, targetType, targetIds);
  const unknown = targetIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw notFound(
      `No ${targetType} ${unknown.map((id) => `"${id}"`).join(', ')} in this project. ${targetsTake[targetType]}`,
    );
}
