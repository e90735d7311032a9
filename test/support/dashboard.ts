import { expect } from 'vitest';
import type { Job, Queue } from 'bullmq';
import type { TestIngress } from './ingress.ts';
import { eventually } from './eventually.ts';

/** What the dashboard's "Retry" button does, through its HTTP API; answers once the replayed run has completed. */
export async function replayFromDashboard(
  ingress: TestIngress,
  adminToken: string,
  queue: Queue,
  job: Job,
): Promise<Job> {
  const response = await ingress.request(
    'PUT',
    `/admin/queues/api/queues/${queue.name}/${encodeURIComponent(job.id!)}/retry`,
    { key: adminToken },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(204);
  return eventually(async () => {
    const replayed = (await queue.getJob(job.id!))!;
    expect(replayed.finishedOn).toBeGreaterThan(job.finishedOn ?? 0);
    expect(await replayed.getState()).toBe('completed');
    return replayed;
  });
}
