/**
 * npm run bench:send -- --devices 10000
 * Local Redis and MongoDB-wire server, the sandbox gateways, an ingress and one send and one deliver worker process.
 * Registers N devices (one per user, bulk-inserted), sends to them by userId in chunks of 100 users on a team project,
 * and reports deliveries per second from the first POST to the last sandbox receipt, and the workers' peak RSS.
 * Then, on the same server: the raw database work of a send to 100 users (the find of their devices by $in, then the
 * insertMany of their history) at 4, 16 and 64 in flight, the fastest counting; the raw history insertMany alone in
 * batches of 100 at a deliver worker's 16; and the sandbox gateways alone. Prints deliveries/s over each.
 * Target: ≥ 1,000 deliveries/s at 100,000 devices.
 */
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { peakRssMiB, waitUntil } from './measure.ts';
import { seedDevices } from './seed-devices.ts';
import { measureSandboxCeiling } from './sandbox-ceiling.ts';
import { bestCeiling, checkTarget, historyInsertCeiling, ratio, sendToUsersCeiling } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
    'timeout-seconds': { type: 'string', default: '600' },
    'ceiling-seconds': { type: 'string', default: '15' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const postConcurrency = Number(values.concurrency);
const usersPerSend = 100;
// Progress on stderr: stdout is the one JSON line.
const log = (line: string) => process.stderr.write(`[send] ${line}\n`);

const bench = await openBenchEnvironment('send', { sandbox: true });
const sandbox = bench.sandbox!;
try {
  const { models, baseUrl } = bench;
  await bench.startIngress();
  const sendWorker = bench.spawnProcess('worker-send');
  const deliverWorker = bench.spawnProcess('worker-deliver');

  const project = await createProject(models, { name: 'bench', plan: 'team' });
  const registerStart = Date.now();
  await seedDevices(models, project.projectId, deviceCount, (index) => ({ name: `User ${index}` }), { label: 'send' });
  log(`registered ${deviceCount} devices in ${Date.now() - registerStart} ms`);
  // Let both workers finish starting (index checks) so that the timing is of the sends alone.
  await new Promise((done) => setTimeout(done, 2000));

  const sends = Math.ceil(deviceCount / usersPerSend);
  let nextSend = 0;
  let failures = 0;
  const firstPostAt = Date.now();
  // The timeout bounds the whole run, posting included: on a slow server the POSTs themselves can take minutes.
  const deadline = firstPostAt + Number(values['timeout-seconds']) * 1000;
  async function poster(): Promise<void> {
    while (nextSend < sends && Date.now() < deadline) {
      const index = nextSend++;
      const userIds = Array.from(
        { length: Math.min(usersPerSend, deviceCount - index * usersPerSend) },
        (_, offset) => `user-${index * usersPerSend + offset}`,
      );
      const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          targetType: 'userId',
          targetIds: userIds,
          title: 'Hello {{ device.tags.name }}',
          body: 'Bench message {{ data.n }}',
          data: { n: index },
        }),
      });
      if (!response.ok) failures++;
      await response.arrayBuffer();
    }
  }
  await Promise.all(Array.from({ length: postConcurrency }, poster));
  const postedAt = Date.now();
  const posted = nextSend;
  const expected = Math.min(deviceCount, posted * usersPerSend);
  log(`posted ${posted} of ${sends} sends (${failures} failed) in ${postedAt - firstPostAt} ms`);

  let peakSend = 0;
  let peakDeliver = 0;
  let reported = 0;
  // A run that passes its timeout still reports what was delivered by then (timedOut: true), not just an error.
  let timedOut = false;
  await waitUntil(
    `${deviceCount} deliveries`,
    async () => {
      peakSend = Math.max(peakSend, await peakRssMiB(sendWorker.pid));
      peakDeliver = Math.max(peakDeliver, await peakRssMiB(deliverWorker.pid));
      const delivered = sandbox.deliveries().length;
      if (delivered > reported + deviceCount / 10) {
        reported = delivered;
        log(`delivered ${reported}/${deviceCount}`);
      }
      return delivered >= expected;
    },
    Math.max(1000, deadline - Date.now()),
    200,
  ).then(
    () => {
      timedOut = posted < sends;
    },
    (error: Error) => {
      timedOut = true;
      log(`${error.message}: reporting what was delivered`);
    },
  );
  // A copy: the sandbox's log goes on growing with the ceiling's pushes below.
  const all = [...sandbox.deliveries()];
  const lastReceipt = timedOut || all.length === 0 ? Date.now() : Date.parse(all[all.length - 1]!.receivedAt);
  const seconds = (lastReceipt - firstPostAt) / 1000;
  const duplicates = all.length - new Set(all.map((delivery) => delivery.token)).size;
  const deliveriesPerSecond = Math.round(all.length / seconds);
  if (timedOut) {
    // The ceilings must not share the server with the sends still going on: stop the workers, and give the server
    // the time to finish the queries they left running (it does not cancel them when the client goes).
    for (const worker of [sendWorker, deliverWorker]) worker.kill('SIGKILL');
    log('workers stopped; waiting 20 s for their queries to end on the server');
    await new Promise((done) => setTimeout(done, 20_000));
  }
  const ceilingSeconds = Number(values['ceiling-seconds']);
  const toUsers = await bestCeiling([4, 16, 64], (concurrency) =>
    sendToUsersCeiling(models, project.projectId, deviceCount, {
      concurrency,
      seconds: ceilingSeconds,
      operations: Math.max(posted, 1),
      usersPerSend,
    }),
  );
  const history = await historyInsertCeiling(models.History.db.db!, project.projectId, {
    concurrency: 16,
    seconds: ceilingSeconds,
    operations: Math.max(posted, 1),
  });
  const sandboxCeiling = (await measureSandboxCeiling(sandbox.port, Math.min(deviceCount, 50_000))).perSecond;
  const result = {
    devices: deviceCount,
    sends,
    posted,
    failedPosts: failures,
    deliveries: all.length,
    timedOut,
    duplicates,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond,
    peakRssMiB: { sendWorker: peakSend, deliverWorker: peakDeliver },
    sendToUsersCeilingPerSecond: toUsers.perSecond,
    ratioToSendToUsersCeiling: ratio(deliveriesPerSecond, toUsers.perSecond),
    historyInsertCeilingPerSecond: history.perSecond,
    ratioToHistoryInsertCeiling: ratio(deliveriesPerSecond, history.perSecond),
    sandboxCeilingPerSecond: sandboxCeiling,
    ratioToSandboxCeiling: ratio(deliveriesPerSecond, sandboxCeiling),
    ceilings: { sendToUsers: toUsers, historyInsert: history },
    targets: [
      checkTarget(
        `send by userId at ${deviceCount} devices ≥ 1,000 deliveries/s (the raw database work of one allows ${toUsers.perSecond}/s)`,
        deliveriesPerSecond,
        deliveriesPerSecond >= 1000,
      ),
    ],
    services: bench.services.path,
  };
  process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
} finally {
  await bench.close();
}
