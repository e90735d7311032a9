/**
 * npm run bench -- [--devices 100000] [--web-push] [--options] [--timing-controls] [--json]
 * Seeds N devices (android, ios and web in turn, with tags; with --web-push the web third has standard Web Push
 * subscriptions issued by the sandbox instead of FCM tokens), creates a segment matching all of them, sends one
 * personalised push to it through the sandbox and waits for the last delivery. Then measures the ceiling: how many
 * pushes per second a minimal client (the same gateway adapters, no queue, no database) gets from the same sandbox,
 * and the ceiling of the database write every push costs: raw insertMany of history documents in batches of 100,
 * 16 in flight as in a deliver worker, on the same server. Target: deliveries/s ≥ 70% of the lower of the two.
 * With --timing-controls, the same audience is then sent again in another project with a frequency cap and quiet hours
 * set (not covering now), CONTRACTS §15: target ≥ 0.9 of the rate without them, in the same run. With --options the
 * push sets every message option of CONTRACTS §14 (two buttons, ten localizations, ttl, priority, collapseId, badge,
 * sound).
 */
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { peakRssMiB, waitUntil } from './measure.ts';
import { seedDevices } from './seed-devices.ts';
import { measureSandboxCeiling } from './sandbox-ceiling.ts';
import { checkTarget, historyInsertCeiling, ratio } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100000' },
    json: { type: 'boolean', default: false },
    'web-push': { type: 'boolean', default: false },
    'timing-controls': { type: 'boolean', default: false },
    options: { type: 'boolean', default: false },
    'timeout-seconds': { type: 'string', default: '1800' },
    /** Seconds of the history-insert ceiling. */
    'ceiling-seconds': { type: 'string', default: '15' },
  },
});
const deviceCount = Number(values.devices);
const tokenPrefix = 'bench-';
const languages = ['ko', 'ja', 'pt', 'es', 'fr', 'de', 'it', 'zh', 'ru', 'ar'];
const everyOption = {
  ttl: 3600,
  priority: 'normal',
  collapseId: 'bench-sale',
  badge: 1,
  sound: 'chime.caf',
  buttons: [
    { id: 'open', text: 'Open, {{ device.tags.name }}', url: 'https://bench.example/open' },
    { id: 'later', text: 'Later' },
  ],
  localizations: Object.fromEntries(
    languages.map((language) => [
      language,
      { title: `[${language}] {{ device.tags.name }}`, body: `[${language}] news` },
    ]),
  ),
};
/** A seeded token, or a seeded Web Push endpoint (its id starts with the prefix too). */
const isBenchToken = (token: string) => token.startsWith(tokenPrefix) || token.includes(`/webpush/push/${tokenPrefix}`);
const progress = (label: string, done: number) => {
  if (values.json) return;
  const width = 30;
  const filled = Math.round((done / deviceCount) * width);
  process.stderr.write(
    `\r${label.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${deviceCount}`,
  );
  if (done >= deviceCount) process.stderr.write('\n');
};

const bench = await openBenchEnvironment('e2e', { sandbox: true });
const sandbox = bench.sandbox!;
try {
  const { models, baseUrl } = bench;
  await bench.startIngress();
  const workers = [bench.spawnProcess('worker-send'), bench.spawnProcess('worker-deliver')];
  /** Seeds the audience in a new project, sends to it and answers its deliveries/s, counting those from this send. */
  const sendToAudience = async (label: string, settings: unknown) => {
    const project = await createProject(models, { name: label, plan: 'business' });
    const api = (path: string, body: unknown, method = 'POST') =>
      fetch(`${baseUrl}/v1/projects/${project.projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => {
        const parsed = (await response.json()) as { data?: { id: string }; error?: unknown };
        if (!response.ok || !parsed.data)
          throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
        return parsed.data;
      });
    if (settings !== null) await api('/settings', settings, 'PATCH');

    const cities = ['Seoul', 'Busan', 'Berlin', 'Lisbon'];
    await seedDevices(
      models,
      project.projectId,
      deviceCount,
      (index) => ({ name: `User ${index}`, city: cities[index % cities.length]!, bench: 1 }),
      {
        label,
        // One device in eleven has no language; the others one of the ten the message with options is written in.
        languageFor: (index) => languages[index % (languages.length + 1)] ?? null,
        ...(values['web-push'] && { webPushFor: () => sandbox.issueWebPushSubscription(tokenPrefix) }),
      },
    );
    const segment = await api('/segments', {
      name: 'everyone',
      match: 'all',
      conditions: [{ tag: 'bench', op: 'exists' }],
    });

    const postedAt = Date.now();
    const fromThisSend = () =>
      sandbox
        .deliveries()
        .filter((delivery) => isBenchToken(delivery.token) && Date.parse(delivery.receivedAt) >= postedAt);
    const notification = await api('/notifications', {
      targetType: 'segment',
      targetIds: [segment.id],
      title: 'Hello {{ device.tags.name }}',
      body: 'News from {{ device.tags.city | default: "your city" }}',
      data: { campaign: 'bench' },
      ...(values.options && everyOption),
    });
    const settled = async () => {
      const stored = await models.Notification.findById(notification.id, { status: 1 }).lean();
      return stored?.status === 'completed' || stored?.status === 'failed';
    };
    await waitUntil(
      'the send to complete',
      async () => {
        const rss = await Promise.all(workers.map((worker) => peakRssMiB(worker.pid)));
        peakRss = Math.max(peakRss, ...rss);
        progress('delivering', Math.min(fromThisSend().length, deviceCount));
        return settled();
      },
      Number(values['timeout-seconds']) * 1000,
      250,
    );
    const received = fromThisSend();
    // A loop, not Math.max(...): a million arguments overflow the stack.
    const lastReceipt = received.reduce((latest, delivery) => Math.max(latest, Date.parse(delivery.receivedAt)), 0);
    const seconds = (lastReceipt - postedAt) / 1000;
    const delivered = new Set(received.map((delivery) => delivery.token)).size;
    const historyWritten = await models.History.countDocuments({ notificationId: notification.id });
    const stats = await fetch(`${baseUrl}/v1/projects/${project.projectId}/notifications/${notification.id}`, {
      headers: { authorization: `Bearer ${project.apiKey}` },
    }).then((response) => response.json() as Promise<{ data: { stats: { failed: number } } }>);
    const deliveriesPerSecond = Math.round(delivered / seconds);
    return { project, received, seconds, delivered, historyWritten, stats, deliveriesPerSecond };
  };

  let peakRss = 0;
  const { project, received, seconds, delivered, historyWritten, stats, deliveriesPerSecond } = await sendToAudience(
    'bench',
    null,
  );
  // Quiet hours six hours from now in UTC, the default zone: set, and covering no device now.
  const hourAt = (offsetHours: number) => new Date(Date.now() + offsetHours * 3_600_000).toISOString().slice(11, 16);
  const timed = values['timing-controls']
    ? await sendToAudience('bench-timing', {
        frequencyCap: { max: 10, windowHours: 24 },
        quietHours: { start: hourAt(6), end: hourAt(7) },
      })
    : null;
  const ceilingPerSecond = await measureSandboxCeiling(sandbox.port, Math.min(deviceCount, 50_000));
  const historyCeiling = await historyInsertCeiling(models.History.db.db!, project.projectId, {
    concurrency: 16,
    seconds: Number(values['ceiling-seconds']),
    operations: Math.ceil(deviceCount / 100),
  });
  const bound = Math.min(ceilingPerSecond, historyCeiling.perSecond);
  const result = {
    devices: deviceCount,
    webDevicesThrough: values['web-push'] ? 'webpush' : 'fcm',
    delivered,
    duplicates: received.length - delivered,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond,
    peakRssMb: peakRss,
    historyWritten,
    failed: stats.data.stats.failed,
    ceilingPerSecond,
    ratioToSandboxCeiling: ratio(deliveriesPerSecond, ceilingPerSecond),
    historyInsertCeilingPerSecond: historyCeiling.perSecond,
    historyInsertCeiling: historyCeiling,
    ratioToHistoryInsertCeiling: ratio(deliveriesPerSecond, historyCeiling.perSecond),
    ratioToLowerCeiling: ratio(deliveriesPerSecond, bound),
    ...(timed && {
      withTimingControls: {
        delivered: timed.delivered,
        seconds: Number(timed.seconds.toFixed(2)),
        deliveriesPerSecond: timed.deliveriesPerSecond,
        ratioToWithout: ratio(timed.deliveriesPerSecond, deliveriesPerSecond),
      },
    }),
    targets: [
      checkTarget(
        `end-to-end segment send of ${deviceCount}: deliveries/s ≥ 0.7 × min(sandbox ceiling, history-insert ceiling)`,
        ratio(deliveriesPerSecond, bound),
        deliveriesPerSecond >= 0.7 * bound,
      ),
      ...(timed
        ? [
            checkTarget(
              `segment send of ${deviceCount} with a frequency cap and quiet hours set: deliveries/s ≥ 0.9 × without`,
              ratio(timed.deliveriesPerSecond, deliveriesPerSecond),
              timed.deliveriesPerSecond >= 0.9 * deliveriesPerSecond,
            ),
          ]
        : []),
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
}
