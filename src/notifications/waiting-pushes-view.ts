import type { Deps } from '../deps.ts';
import type { DeliveryLogQuery, DeliveryView } from '../schemas/delivery-log.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { waitingParts, waitingSummary } from '../queues/waiting-pushes.ts';
import { latestBatchData } from '../queues/deliver-call-progress.ts';
import { assertProjectNotification, findNotificationView } from './notification-view.ts';

type ViewDeps = Pick<Deps, 'models' | 'redis' | 'config'>;

/**
 * The notification view with its held pushes (CONTRACTS §15): while some wait (local time, quiet hours, throttle),
 * `stats.waiting` says how many and `waitingUntil` when the first is due.
 */
export async function currentNotificationView(
  deps: ViewDeps,
  projectId: string,
  notificationId: string,
): Promise<NotificationView> {
  const view = await findNotificationView(deps, projectId, notificationId);
  if (view.status !== 'sending') return view;
  const summary = await waitingSummary(deps, projectId, notificationId);
  if (summary === null) return view;
  return { ...view, stats: { ...view.stats, waiting: summary.waiting }, waitingUntil: summary.waitingUntil };
}

/**
 * The delivery log's `waiting` entries (CONTRACTS §17), in device order after `after`: the devices of the jobs noted
 * as waiting and not yet done there, each with why it waits and when it is due.
 */
export async function waitingEntries(
  deps: ViewDeps & Pick<Deps, 'queues'>,
  projectId: string,
  notificationId: string,
  query: DeliveryLogQuery,
): Promise<DeliveryView[]> {
  await assertProjectNotification(deps.models, projectId, notificationId);
  const parts = await waitingParts(deps, projectId, notificationId);
  const jobs = await Promise.all(parts.map((part) => deps.queues.deliver.getJob(part.jobId)));
  const entries = parts.flatMap((part, index) => {
    const job = jobs[index];
    if (!job) return [];
    const data = latestBatchData(job);
    const done = new Set<string>(data.done ?? []);
    const at = new Date(part.at).toISOString();
    return (data.devices as Array<{ deviceId: string; platform: string }>)
      .filter(({ deviceId }) => !done.has(deviceId) && (query.after === undefined || deviceId > query.after))
      .map(({ deviceId, platform }) => ({ deviceId, platform, outcome: 'waiting', reason: part.reason, at }));
  });
  entries.sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
  return entries.slice(0, query.limit);
}
