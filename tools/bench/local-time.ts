/**
 * npm run bench:local-time -- [--devices 20000] [--json]
 * A local-time send (CONTRACTS §15) against the same audience sent at once, in the same run. Seeds N devices spread
 * over 24 zones of distinct offsets (platforms in turn within each zone), sends them one push at once and waits for
 * it, then sends them one at a local time that comes round in the UTC zone one to two minutes later. Measures each
 * send's fan-out, from the POST until its send job has queued every batch or part (its progress `finished`), and the
 * parts the local-time send made; then waits for the UTC zone's instant and measures how late its last push reached
 * the sandbox, and cancels the send (the other zones wait hours). Targets: fan-out ≤ 1.5× the send at once; the due
 * zone's pushes all handed to the sandbox within 60 s of its local time.
 */
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import type { SendJobData } from '../../src/queues/send.ts';
import { openBenchEnvironment, projectApi } from './bench-environment.ts';
import { waitUntil } from './measure.ts';
import { seedDevices, seededToken } from './seed-devices.ts';
import { checkTarget, ratio } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '20000' },
    json: { type: 'boolean', default: false },
    'timeout-seconds': { type: 'string', default: '600' },
  },
});
const deviceCount = Number(values.devices);
const timeoutMs = Number(values['timeout-seconds']) * 1000;
const minuteMs = 60_000;
/**
 * 24 distinct offsets in November, -11 to +11 hours and +5:30 (not +13, whose clock is -11's), one zone each; UTC is
 * the one that comes round during the run.
 */
const zones = [
  'Pacific/Pago_Pago',
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
  'America/Halifax',
  'America/Sao_Paulo',
  'Atlantic/South_Georgia',
  'Atlantic/Cape_Verde',
  'UTC',
  'Europe/Berlin',
  'Europe/Athens',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Brisbane',
  'Pacific/Noumea',
  'Asia/Kolkata',
];
// Three devices in a row share a zone, so that every zone has every platform (they come in turn).
const zoneOf = (index: number) => zones[Math.floor(index / 3) % zones.length]!;

const bench = await openBenchEnvironment('local-time', { sandbox: true });
const sandbox = bench.sandbox!;
try {
  const { models, baseUrl } = bench;
  await bench.startIngress();
  bench.spawnProcess('worker-send');
  bench.spawnProcess('worker-deliver');
  const project = await createProject(models, { name: 'local-time', plan: 'business' });
  const api = projectApi(baseUrl, project);
  await seedDevices(models, project.projectId, deviceCount, () => ({ bench: 1 }), {
    label: 'local-time',
    timezoneFor: zoneOf,
  });
  const segment = await api('/segments', {
    name: 'everyone',
    match: 'all',
    conditions: [{ tag: 'bench', op: 'exists' }],
  });
  const sendQueue = bench.queue('send');

  /** Posts a send and answers when its fan-out has queued everything: the time taken and its batches or parts. */
  const fanOut = async (extra: Record<string, unknown>) => {
    const postedAt = performance.now();
    const { id } = await api('/notifications', {
      targetType: 'segment',
      targetIds: [segment.id],
      body: 'news',
      ...extra,
    });
    let progress: SendJobData['progress'];
    await waitUntil(
      'the fan-out to finish',
      async () => {
        progress = ((await sendQueue.getJob(id))?.data as SendJobData | undefined)?.progress;
        return progress?.finished === true;
      },
      timeoutMs,
      10,
    );
    return {
      id,
      seconds: (performance.now() - postedAt) / 1000,
      parts: progress!.batches,
      targeted: progress!.targeted,
    };
  };
  const settled = (id: string) => async () =>
    ['completed', 'failed'].includes((await models.Notification.findById(id, { status: 1 }).lean())?.status ?? '');

  const atOnce = await fanOut({});
  await waitUntil('the send at once to complete', settled(atOnce.id), timeoutMs, 250);
  const sentAtOnce = sandbox.deliveries().length;

  // The next minute of UTC at least a minute ahead: time for the fan-out before it comes round.
  const instant = Math.ceil((Date.now() + minuteMs) / minuteMs) * minuteMs;
  const localTime = new Date(instant).toISOString().slice(11, 16);
  const local = await fanOut({ localTime });
  const dueTokens = new Set(
    Array.from({ length: deviceCount }, (_, index) => index)
      .filter((index) => zoneOf(index) === 'UTC')
      .map(seededToken),
  );
  const dueDeliveries = () =>
    sandbox
      .deliveries()
      .slice(sentAtOnce)
      .filter((delivery) => dueTokens.has(delivery.token));
  await waitUntil(
    'the due zone to be sent',
    () => dueDeliveries().length >= dueTokens.size,
    instant - Date.now() + timeoutMs,
    100,
  );
  const received = dueDeliveries().map((delivery) => Date.parse(delivery.receivedAt));
  const firstLateness = (Math.min(...received) - instant) / 1000;
  const lastLateness = (Math.max(...received) - instant) / 1000;
  const view = { data: await api<{ zones?: { total: number; sent: number } }>(`/notifications/${local.id}`) };
  await api(`/notifications/${local.id}/cancel`, {});
  const fanOutRatio = ratio(local.seconds, atOnce.seconds);
  const result = {
    devices: deviceCount,
    zones: zones.length,
    atOnce: { fanOutSeconds: Number(atOnce.seconds.toFixed(2)), batches: atOnce.parts },
    localTime: {
      fanOutSeconds: Number(local.seconds.toFixed(2)),
      parts: local.parts,
      targeted: local.targeted,
      zonesShown: view.data.zones,
    },
    fanOutRatio,
    dueZone: {
      zone: 'UTC',
      devices: dueTokens.size,
      delivered: received.length,
      firstPushLatenessSeconds: Number(firstLateness.toFixed(2)),
      lastPushLatenessSeconds: Number(lastLateness.toFixed(2)),
    },
    targets: [
      checkTarget('local-time fan-out ≤ 1.5 × the same audience sent at once', fanOutRatio, fanOutRatio <= 1.5),
      checkTarget(
        "the due zone's last push handed to the sandbox ≤ 60 s after its local time",
        Number(lastLateness.toFixed(2)),
        lastLateness <= 60 && received.length === dueTokens.size,
      ),
    ],
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else console.dir(result, { depth: 4 });
} finally {
  await bench.close();
}
