import type { Models } from '../models/index.ts';
import type { SubjectType } from '../schemas/events.ts';
import { deviceKey } from '../models/device.ts';

/**
 * Whose events count. Reads of events and counters run one query per subject, an equality served by a (projectId,
 * subjectType, subjectId, ...) index, rather than one $or or $in: subjects never overlap, so counts add up and
 * newest-first pages merge, and there are few (a device and its user, or a user and their devices). MongoDB plans an
 * $or or $in branch by branch the same way; the local server does not (docs/architecture.md#local-server-quirks;
 * the query-plan tests show it).
 */
export interface Subject {
  subjectType: SubjectType;
  subjectId: string;
}

export interface SubjectQuery {
  deviceId?: string;
  userId?: string;
}

/**
 * The subjects whose events count for a device (the device and its user) or for a user (the user and every device
 * of theirs), by the links as they are now: a device that logs in counts its user's earlier events too.
 * Both given: the events that count for both, which are the device's when the device belongs to that user, else none.
 */
export async function subjectsCountingFor(models: Models, projectId: string, query: SubjectQuery): Promise<Subject[]> {
  if (query.deviceId !== undefined) {
    const device = await deviceUserQuery(models, projectId, query.deviceId);
    const userId = device?.userId ?? null;
    const subjects: Subject[] = [{ subjectType: 'device', subjectId: query.deviceId }];
    if (userId !== null) subjects.push({ subjectType: 'user', subjectId: userId });
    if (query.userId === undefined) return subjects;
    return userId === query.userId ? subjects : [];
  }
  if (query.userId === undefined) return [];
  const devices = await userDevicesQuery(models, projectId, query.userId);
  return [
    { subjectType: 'user', subjectId: query.userId },
    ...devices.map((device): Subject => ({ subjectType: 'device', subjectId: device.deviceId })),
  ];
}

export function deviceUserQuery(models: Models, projectId: string, deviceId: string) {
  return models.Device.findById(deviceKey(projectId, deviceId), { _id: 0, userId: 1 }).lean();
}

export function userDevicesQuery(models: Models, projectId: string, userId: string) {
  return models.Device.find({ projectId, userId }, { _id: 0, deviceId: 1 }).lean();
}
