import type { DeliverJobData } from '../queues/deliver.ts';
import type { ProjectSettings } from '../schemas/project-settings.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import type { BatchProgress } from './batch-progress.ts';
import type { Rendered } from './rendered-push.ts';
import { admitUnderCap } from './frequency-cap.ts';
import { reportCapped } from './report-outcomes.ts';

/**
 * The rendered pushes the project's frequency cap lets through, admitted and counted for the whole batch in one round
 * trip just before they go to the gateway; the others are capped: counted, done, and logged (reportCapped) with no
 * history. Without a cap nothing is counted.
 */
export async function withinFrequencyCap(
  worker: DeliveryWorker,
  batch: Pick<DeliverJobData, 'projectId' | 'notificationId'>,
  progress: BatchProgress,
  notification: PreparedNotification,
  settings: ProjectSettings | null,
  rendered: Rendered[],
): Promise<Rendered[]> {
  const cap = settings?.frequencyCap;
  if (!cap || rendered.length === 0) return rendered;
  const check = {
    projectId: batch.projectId,
    notificationId: notification.id,
    cap,
    ignoreCap: notification.timing.ignoreFrequencyCap === true,
  };
  const admitted = await admitUnderCap(
    worker.deps,
    check,
    rendered.map((push) => push.device.deviceId),
  );
  const capped = rendered.filter((push) => !admitted.has(push.device.deviceId));
  progress.tally.count('capped', capped.length);
  for (const push of capped) progress.settle(push.device.deviceId);
  await reportCapped(
    worker.deps,
    batch,
    capped.map((push) => push.device),
  );
  return rendered.filter((push) => admitted.has(push.device.deviceId));
}
