/**
 * npm run bench -- [--devices 100000] [--web-push]
 *   [--compare options,timing-controls,unsubscribes,webhooks,experiment,repeat] [--rounds 1] [--json]
 * Seeds N devices (android, ios and web in turn, with tags; with --web-push the web third has standard Web Push
 * subscriptions issued by the sandbox instead of FCM tokens), creates a segment matching all of them, sends one
 * personalised push to it through the sandbox and waits for the last delivery. Then measures the ceiling: how many
 * pushes per second a minimal client (the same gateway adapters, no queue, no database) gets from the same sandbox,
 * and the ceiling of the database write every push costs: raw insertMany of history documents in batches of 100,
 * 16 in flight as in a deliver worker, on the same server. Target: deliveries/s ≥ 70% of the lower of the two. It
 * also measures both ceilings' work at once (joint-ceiling.ts), the most a send can reach on this machine, and prints
 * the send's ratio to it and the joint ceiling's own ratio to the lower ceiling. The
 * minimal client runs in a process of its own, and the deliver worker's CPU per push in the plain send is printed as a
 * ratio to the client's (target ≤ 1.5); the largest worker is held under 350 MB over every variant.
 * Each --compare variant (sendVariants) then sends to the same audience in a project of its own, in the same run,
 * and is held to ≥ 0.9 of the plain send's rate: `options` sets every message option of CONTRACTS §14 (and its
 * deliver worker's CPU per push is held within 10% of the plain send's), `timing-controls` a frequency cap and quiet
 * hours not covering now (§15), `unsubscribes` 5% of the devices unsubscribed by the send, and `webhooks` the same
 * with an endpoint subscribed to every event (§17), held to `unsubscribes` (run before it) and every
 * device.unsubscribed of which must reach the receiver; `repeat` is the plain send again, the run's own spread, which
 * the others' ratios are read against. With --rounds N the variants are sent N times in turn, each round after a plain
 * send of its own that its variants are held to (summarizeRounds), in every round. Every send starts alike: from a
 * checkpoint of the storage engine (checkpointStorage), with no audience but its own in the devices collection (each
 * send's devices are removed once it is measured), since the segment's query reads the whole collection on the local
 * server and a send after others would be held to a plain send that read less.
 */
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment, projectApi } from './bench-environment.ts';
import { checkpointStorage, cpuBetween, cpuByProcess, namedPids, peakRssMiB, waitUntil } from './measure.ts';
import { removeSeededDevices, seedDevices, seededToken, seededTokenPrefix as tokenPrefix } from './seed-devices.ts';
import { measureSandboxCeiling } from './sandbox-ceiling.ts';
import { measureJointCeiling } from './joint-ceiling.ts';
import { benchLanguages as languages } from './every-option.ts';
import { checkTarget, historyInsertCeiling, ratio } from './database-ceilings.ts';
import { cpuMsPerDevice, summarizeRounds, type VariantRun } from './variant-rounds.ts';
import { experimentMessage, winnerPicker } from './experiment-send.ts';
import {
  everyEventEndpoint,
  isSendVariantName,
  withBaselines,
  type SendVariant,
  type SendVariantName,
  sendVariants,
  startCountingReceiver,
} from './send-variants.ts';

/** An experiment's test plus winner may take 1.3 times the plain send's time (issue 49); other variants 1/0.9. */
const minRatioOf = (variant: SendVariant) =>
  variant.experimentTestPercent === undefined ? 0.9 : Number((1 / 1.3).toFixed(2));

/** A variant's ratio to its baseline in its worst round (or its one send). */
const lowestRatio = (summary: { ratioToBaseline: number; ratiosByRound?: number[] }) =>
  Math.min(...(summary.ratiosByRound ?? [summary.ratioToBaseline]));

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100000' },
    json: { type: 'boolean', default: false },
    'web-push': { type: 'boolean', default: false },
    compare: { type: 'string', default: '' },
    rounds: { type: 'string', default: '1' },
    'timeout-seconds': { type: 'string', default: '1800' },
    /** Seconds of the history-insert ceiling. */
    'ceiling-seconds': { type: 'string', default: '15' },
  },
});
const deviceCount = Number(values.devices);
const askedVariants = values.compare.split(',').filter(Boolean);
const unknownVariant = askedVariants.find((name) => !isSendVariantName(name));
if (unknownVariant)
  throw new Error(`--compare: no variant "${unknownVariant}" (${Object.keys(sendVariants).join(', ')})`);
const variantNames = withBaselines(askedVariants.filter(isSendVariantName));
const expectedUnsubscribed = (variant: SendVariant) =>
  variant.unregisteredEvery ? Math.ceil(deviceCount / variant.unregisteredEvery) : 0;
/** A seeded token, or a seeded Web Push endpoint (its id starts with the prefix too). */
const isBenchToken = (token: string) => token.startsWith(tokenPrefix) || token.includes(`/webpush/push/${tokenPrefix}`);
const progress = (label: string, done: number, total: number) => {
  if (values.json) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r${label.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  if (done >= total) process.stderr.write('\n');
};

const bench = await openBenchEnvironment('e2e', { sandbox: true });
const sandbox = bench.sandbox!;
const receiver = variantNames.includes('webhooks') ? await startCountingReceiver() : null;
try {
  const { models, baseUrl } = bench;
  const webhookEnv = receiver ? { WEBHOOKS_ALLOW_PRIVATE: 'true' } : {};
  const ingress = await bench.startIngress(webhookEnv);
  const [sendWorker, deliverWorker, webhookWorker] = [
    bench.spawnProcess('worker-send'),
    bench.spawnProcess('worker-deliver'),
    ...(receiver ? [bench.spawnProcess('worker-webhook', webhookEnv)] : []),
  ];
  const workers = [sendWorker!, deliverWorker!, ...(webhookWorker ? [webhookWorker] : [])];
  let peakRss = 0;
  const workerNames = ['send', 'deliver', ...(webhookWorker ? ['webhook'] : [])];
  const peakRssByWorker: Record<string, number> = {};
  /** Every process a send keeps busy, whose CPU is read around each send. */
  const busy = {
    ingress: ingress.pid!,
    ...Object.fromEntries(workers.map((worker, index) => [workerNames[index]!, worker.pid!])),
    ...(await namedPids(bench.services.pids)),
  };
  /**
   * Seeds the audience in a new project, sends to it and answers its deliveries/s, counting those from this send; the
   * audience's devices are removed once measured, so nothing read afterwards may need them.
   */
  const sendToAudience = async (label: string, variant: SendVariant, audience = deviceCount) => {
    const project = await createProject(models, { name: label, plan: 'business' });
    const api = projectApi(baseUrl, project);
    if (variant.settings) await api('/settings', variant.settings, 'PATCH');
    if (variant.webhookEndpoint && receiver) await api('/webhooks', everyEventEndpoint(receiver.endpointUrl(label)));

    const cities = ['Seoul', 'Busan', 'Berlin', 'Lisbon'];
    const unregisteredEvery = variant.unregisteredEvery;
    await seedDevices(
      models,
      project.projectId,
      audience,
      (index) => ({ name: `User ${index}`, city: cities[index % cities.length]!, bench: 1 }),
      {
        label,
        // One device in eleven has no language; the others one of the ten the message with options is written in.
        languageFor: (index) => languages[index % (languages.length + 1)] ?? null,
        ...(unregisteredEvery && {
          tokenFor: (index) => `${index % unregisteredEvery === 0 ? 'unregistered-' : ''}${seededToken(index)}`,
        }),
        ...(values['web-push'] && { webPushFor: () => sandbox.issueWebPushSubscription(tokenPrefix) }),
      },
    );
    const segment = await api('/segments', {
      name: 'everyone',
      match: 'all',
      conditions: [{ tag: 'bench', op: 'exists' }],
    });

    await checkpointStorage(models.Device.db.db!);
    const cpuBefore = await cpuByProcess(busy);
    // The sandbox runs in this process and answers every gateway call: it keeps only this send's log (every send of a
    // run at 100,000 devices would hold a gigabyte of heap), and a poll reads only what arrived since the last.
    sandbox.forget();
    let polled = 0;
    let receivedSoFar = 0;
    const countReceived = () => {
      const log = sandbox.deliveries();
      for (; polled < log.length; polled++) if (isBenchToken(log[polled]!.token)) receivedSoFar++;
      return receivedSoFar;
    };
    const postedAt = Date.now();
    const content = {
      title: 'Hello {{ device.tags.name }}',
      body: 'News from {{ device.tags.city | default: "your city" }}',
    };
    const notification = await api('/notifications', {
      targetType: 'segment',
      targetIds: [segment.id],
      ...(variant.experimentTestPercent === undefined
        ? content
        : experimentMessage(content, variant.experimentTestPercent)),
      data: { campaign: 'bench' },
      ...variant.message,
    });
    const winner = variant.experimentTestPercent === undefined ? null : winnerPicker(api, notification.id);
    const settled = async () => {
      const stored = await models.Notification.findById(notification.id, { status: 1 }).lean();
      return stored?.status === 'completed' || stored?.status === 'failed';
    };
    await waitUntil(
      'the send to complete',
      async () => {
        const rss = await Promise.all(workers.map((worker) => peakRssMiB(worker.pid)));
        peakRss = Math.max(peakRss, ...rss);
        rss.forEach((mb, index) => {
          peakRssByWorker[workerNames[index]!] = Math.max(peakRssByWorker[workerNames[index]!] ?? 0, mb);
        });
        progress(label, Math.min(countReceived(), audience), audience);
        await winner?.pickOnceTested();
        return settled();
      },
      Number(values['timeout-seconds']) * 1000,
      250,
    );
    const cpuSpent = cpuBetween(cpuBefore, await cpuByProcess(busy));
    const received = sandbox.deliveries().filter((delivery) => isBenchToken(delivery.token));
    // A loop, not Math.min/max(...): a million arguments overflow the stack.
    let firstReceipt = Infinity;
    let lastReceipt = 0;
    for (const delivery of received) {
      const at = Date.parse(delivery.receivedAt);
      firstReceipt = Math.min(firstReceipt, at);
      lastReceipt = Math.max(lastReceipt, at);
    }
    const seconds = (lastReceipt - postedAt) / 1000;
    const delivered = new Set(received.map((delivery) => delivery.token)).size;
    const historyWritten = await models.History.countDocuments({ notificationId: notification.id });
    const stats = {
      data: await api<{ stats: { failed: number; unsubscribed: number } }>(`/notifications/${notification.id}`),
    };
    const deliverCpuSeconds = cpuSpent.deliver!;
    await removeSeededDevices(models, project.projectId, audience);
    return {
      project,
      /** Deliveries to the audience's tokens, repeats included. */
      receipts: received.length,
      seconds,
      /** From the request to the first delivery: the segment's query before the first batch. */
      firstDeliverySeconds: Number(((firstReceipt - postedAt) / 1000).toFixed(2)),
      delivered,
      historyWritten,
      stats,
      deliveriesPerSecond: Math.round(delivered / seconds),
      deliverCpuSeconds: Number(deliverCpuSeconds.toFixed(2)),
      deliverCpuMsPerPush: Number(((deliverCpuSeconds * 1000) / Math.max(delivered, 1)).toFixed(3)),
      cpuSecondsByProcess: cpuSpent,
    };
  };

  // The first send pays for warming up the workers (JIT, connections): a small one, not measured, so that the plain
  // send is not handicapped against the variants after it.
  await sendToAudience('bench-warm-up', {}, Math.min(deviceCount, 2000));
  const plain = await sendToAudience('bench', {});
  const { project, receipts, seconds, delivered, historyWritten, stats, deliveriesPerSecond } = plain;
  const asRun = (send: typeof plain): VariantRun => ({
    delivered: send.delivered,
    duplicates: send.receipts - send.delivered,
    seconds: send.seconds,
    firstDeliverySeconds: send.firstDeliverySeconds,
    deliverCpuSeconds: send.deliverCpuSeconds,
    cpuSecondsByProcess: send.cpuSecondsByProcess,
    unsubscribed: send.stats.data.stats.unsubscribed,
    unsubscribedReceived: null,
  });
  const runsOf = new Map<SendVariantName, VariantRun[]>();
  const rounds = Number(values.rounds);
  // Each later round sends plain again before its variants, and a variant's round is held to the plain send beside it:
  // the machine's speed drifts more over a run (±15%) than a variant changes the rate.
  const plainRuns = [asRun(plain)];
  const comparesWithPlain = variantNames.some((name) => !(sendVariants[name] as SendVariant).baseline);
  for (let round = 1; round <= rounds; round++) {
    if (round > 1 && comparesWithPlain) {
      plainRuns.push(asRun(await sendToAudience(`bench-${round}`, {})));
    }
    for (const name of variantNames) {
      const variant: SendVariant = sendVariants[name];
      const label = rounds === 1 ? `bench-${name}` : `bench-${name}-${round}`;
      const run = await sendToAudience(label, variant);
      let unsubscribedReceived: number | null = null;
      if (receiver && variant.webhookEndpoint)
        await waitUntil(
          () => `${expectedUnsubscribed(variant)} device.unsubscribed (${unsubscribedReceived} so far)`,
          async () => {
            unsubscribedReceived = await receiver.unsubscribedDevices(label);
            return unsubscribedReceived >= expectedUnsubscribed(variant);
          },
          300_000,
          250,
        );
      runsOf.set(name, [...(runsOf.get(name) ?? []), { ...asRun(run), unsubscribedReceived }]);
    }
  }
  const compared = variantNames.map((name) => {
    const variant: SendVariant = sendVariants[name];
    const baselineRuns = variant.baseline ? runsOf.get(variant.baseline)! : plainRuns;
    return { name, variant, summary: summarizeRounds(runsOf.get(name)!, baselineRuns) };
  });
  // The ceilings, like the sends, start from a checkpoint rather than beside the flush of the last send's writes (the
  // sandbox's writes nothing to the store, so one serves both).
  await checkpointStorage(models.Device.db.db!);
  const ceiling = await measureSandboxCeiling(sandbox.port, Math.min(deviceCount, 50_000));
  const ceilingPerSecond = ceiling.perSecond;
  const cpuPerPushToClient = ratio(plain.deliverCpuMsPerPush, ceiling.cpuMsPerPush);
  const historyCeiling = await historyInsertCeiling(models.History.db.db!, project.projectId, {
    concurrency: 16,
    seconds: Number(values['ceiling-seconds']),
    operations: Math.ceil(deviceCount / 100),
  });
  const bound = Math.min(ceilingPerSecond, historyCeiling.perSecond);
  await checkpointStorage(models.Device.db.db!);
  const jointCeiling = await measureJointCeiling(
    sandbox.port,
    bench.env.MONGODB_URL!,
    project.projectId,
    Math.min(deviceCount, 50_000),
  );
  const result = {
    devices: deviceCount,
    webDevicesThrough: values['web-push'] ? 'webpush' : 'fcm',
    delivered,
    duplicates: receipts - delivered,
    seconds: Number(seconds.toFixed(2)),
    plainFirstDeliverySecondsByRound: plainRuns.map((run) => run.firstDeliverySeconds),
    deliveriesPerSecond,
    ...(plainRuns.length > 1 && {
      plainDeliveriesPerSecondByRound: plainRuns.map((run) => Math.round(run.delivered / run.seconds)),
    }),
    deliverCpuMsPerPush: plain.deliverCpuMsPerPush,
    cpuMsPerDeviceByProcess: cpuMsPerDevice(plainRuns, deviceCount),
    minimalClientCpuMsPerPush: ceiling.cpuMsPerPush,
    deliverCpuPerPushToMinimalClient: cpuPerPushToClient,
    peakRssMb: peakRss,
    peakRssMbByWorker: peakRssByWorker,
    historyWritten,
    failed: stats.data.stats.failed,
    ceilingPerSecond,
    ratioToSandboxCeiling: ratio(deliveriesPerSecond, ceilingPerSecond),
    historyInsertCeilingPerSecond: historyCeiling.perSecond,
    historyInsertCeiling: historyCeiling,
    ratioToHistoryInsertCeiling: ratio(deliveriesPerSecond, historyCeiling.perSecond),
    ratioToLowerCeiling: ratio(deliveriesPerSecond, bound),
    jointCeiling,
    /** The highest ratioToLowerCeiling this machine allows: both ceilings' work at once, with no product around it. */
    jointCeilingToLowerCeiling: ratio(jointCeiling.perSecond, bound),
    ratioToJointCeiling: ratio(deliveriesPerSecond, jointCeiling.perSecond),
    compared: Object.fromEntries(
      compared.map(({ name, variant, summary }) => {
        const { baselineRate: _baselineRate, unsubscribedReceived, ...shown } = summary;
        return [
          name,
          {
            ...shown,
            comparedWith: variant.baseline ?? 'plain',
            cpuPerPushToPlain: ratio(summary.deliverCpuMsPerPush, plain.deliverCpuMsPerPush),
            cpuMsPerDeviceByProcess: cpuMsPerDevice(runsOf.get(name)!, deviceCount),
            ...(variant.unregisteredEvery && { expectedUnsubscribedPerRound: expectedUnsubscribed(variant) }),
            ...(variant.webhookEndpoint && { unsubscribedReceived }),
          },
        ];
      }),
    ),
    ...(receiver && { webhookEventsReceived: await receiver.counts() }),
    targets: [
      checkTarget(
        `end-to-end segment send of ${deviceCount}: deliveries/s ≥ 0.7 × min(sandbox ceiling, history-insert ceiling)`,
        ratio(deliveriesPerSecond, bound),
        deliveriesPerSecond >= 0.7 * bound,
      ),
      checkTarget(`largest worker under 350 MB`, peakRss, peakRss < 350),
      checkTarget(
        "deliver worker's CPU per push ≤ 1.5 × the minimal client's (the ceiling's adapters alone)",
        cpuPerPushToClient,
        cpuPerPushToClient <= 1.5,
      ),
      ...compared.flatMap(({ name, variant, summary }) => [
        checkTarget(
          `segment send of ${deviceCount}, ${name}: deliveries/s ≥ ${minRatioOf(variant)} × ${variant.baseline ?? 'plain'} in every round, 0 duplicates`,
          lowestRatio(summary),
          lowestRatio(summary) >= minRatioOf(variant) && summary.duplicates === 0,
        ),
        ...(name === 'options'
          ? [
              checkTarget(
                "deliver worker CPU per push with every option within 10% of the plain send's",
                ratio(summary.deliverCpuMsPerPush, plain.deliverCpuMsPerPush),
                summary.deliverCpuMsPerPush <= 1.1 * plain.deliverCpuMsPerPush,
              ),
            ]
          : []),
        ...(variant.webhookEndpoint && receiver
          ? [
              checkTarget(
                'every device.unsubscribed received by the webhook endpoint, in every round',
                Math.min(...summary.unsubscribedReceived.map(Number)),
                summary.unsubscribedReceived.every((count) => count === expectedUnsubscribed(variant)),
              ),
            ]
          : []),
      ]),
    ],
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    console.table(result);
    process.stdout.write(`services: ${bench.services.path}\n`);
  }
} finally {
  await bench.close();
  await receiver?.close();
}
