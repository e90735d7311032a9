import { latestBatchData } from '../../src/queues/deliver-call-progress.ts';
import type { Queues } from '../../src/infra/queue-names.ts';

const unfinished = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * Where a send that has not completed stands in the queues, for a failure message: its send job's state and attempts,
 * and each of its delivery batches not completed, with its state, attempts, stalls and last failure. A send that stays
 * "sending" is waiting on one of these.
 */
export async function describeSendState(queues: Queues, notificationId: string): Promise<string> {
  const send = await queues.send.getJob(notificationId);
  const lines = [
    send
      ? `send job: ${await send.getState()}, ${send.attemptsMade} attempts, ${send.stalledCounter} stalls, ` +
        `dependencies ${JSON.stringify(await send.getDependenciesCount())}, failed with ${send.failedReason}`
      : 'send job: gone',
  ];
  const batches = (await queues.deliver.getJobs([...unfinished])).filter(
    (job) => job.data.notificationId === notificationId,
  );
  for (const job of batches)
    lines.push(
      `batch ${job.id}: ${await job.getState()}, ${job.attemptsMade} attempts, ${job.stalledCounter} stalls, ` +
        `${latestBatchData(job).done?.length ?? 0} of ${job.data.devices.length} done, failed with ${job.failedReason}`,
    );
  if (batches.length === 0) lines.push('no batch unfinished');
  return lines.join('\n');
}
