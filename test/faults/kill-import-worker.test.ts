import { afterAll, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';
import { processEnv, startWorkerProcess, type NodeProcess } from '../support/child-processes.ts';
import { readImport, uploadImport } from '../support/device-imports.ts';

const rows = 100_000;
const {
  config,
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const workers: NodeProcess[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop(5_000)));
});

const startWorker = async () => {
  const worker = await startWorkerProcess(
    'device-import',
    processEnv(config, { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' }),
  );
  workers.push(worker);
  return worker;
};

const lines = Array.from({ length: rows }, (_, index) =>
  JSON.stringify({ id: `d${index}`, platform: 'android', pushToken: `tok-${index}`, tags: { row: index } }),
);

/*
 * A worker killed between any two writes of a batch leaves the import's checkpoint, or the batch it left pending:
 * the next worker resumes there, writes the devices again without changing any twice, and adds the batch's counts
 * (to the import and to the overview's subscribed devices) once.
 */
it('kill -9 of the import worker mid-import of 100,000 rows: a new worker completes it with every row applied once', async () => {
  const uploaded = await uploadImport(ingress, project, lines.join('\n'), 'application/x-ndjson');
  expect(uploaded.status).toBe(202);
  const importId = uploaded.body.data.id;
  const progress = async () => (await readImport(ingress, project, importId)).body.data;

  const first = await startWorker();
  await eventually(async () => expect((await progress()).rows).toBeGreaterThanOrEqual(rows / 5), 1_200_000, 200);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect((await progress()).status).toBe('running');

  await startWorker();
  const done = await eventually(
    async () => {
      const state = await progress();
      expect(state.status).toBe('completed');
      return state;
    },
    2_400_000,
    1000,
  );
  expect(done).toMatchObject({ rows, created: rows, updated: 0, failed: 0, errors: [] });

  // One read of the project's devices (each count reads every one on the local server): every row a device, each
  // written once (revision 1).
  const byRevision = await ingress.context.models.Device.aggregate<{ _id: number; devices: number }>([
    { $match: { projectId: project.projectId } },
    { $group: { _id: '$revision', devices: { $sum: 1 } } },
  ]);
  expect(byRevision).toEqual([{ _id: 1, devices: rows }]);
  const overview = await ingress.request('GET', `/v1/projects/${project.projectId}/overview`, { key: project.apiKey });
  expect(overview.body.data.days.at(-1).subscribed).toBe(rows);
}, 3_600_000);
