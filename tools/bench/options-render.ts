/**
 * npm run bench:options-render -- [--devices 20000] [--rounds 5] [--json]
 *
 * The deliver worker's per-push work for a message with every option of CONTRACTS §14 (two buttons, one with Liquid;
 * ten localizations; ttl, priority, collapseId, badge, sound) against the plain message end-to-end's bench sends: each
 * batch of 500 rendered through the pool (renderPushes), then mapped to FCM and APNs messages. CPU is the process's,
 * render threads included. No services: a micro-benchmark of one process; plain and options alternate, each `--rounds`
 * times after a warm-up, and the medians count.
 */
import { parseArgs } from 'node:util';
import { RenderPool } from '../../src/rendering/render-pool.ts';
import { renderPushes, toOutgoing } from '../../src/delivery/rendered-push.ts';
import { localizationKeys } from '../../src/rendering/localized-content.ts';
import type { PreparedNotification } from '../../src/delivery/prepared-notification.ts';
import { fcmMessageFor } from '../../src/gateways/fcm/fcm-message.ts';
import { apnsNotificationFor } from '../../src/gateways/apns/apns-notification.ts';
import type { MessageOptions } from '../../src/schemas/message-options.ts';
import { benchLanguages as languages, everyOption } from './every-option.ts';
import type { BatchDevice } from '../../src/queues/deliver.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const batchSize = 500;
function prepared(options: MessageOptions): PreparedNotification {
  const { ttl, priority, badge, sound } = options;
  const set = options.ttl !== undefined;
  return {
    id: 'bench',
    createdAt: new Date(),
    sendFrom: new Date(),
    content: {
      title: 'Hello {{ device.tags.name }}',
      body: 'News from {{ device.tags.city | default: "your city" }}',
      url: null,
      imageUrl: null,
    },
    data: { campaign: 'bench' },
    entryEvent: null,
    pushData: { campaign: 'bench', notificationId: 'bench' },
    stoppedRenders: 0,
    timing: {},
    options,
    localizationKeys: localizationKeys(options.localizations),
    pushOptions: set ? { ttl, priority, badge, sound } : undefined,
  };
}

const devices: BatchDevice[] = Array.from({ length: Number(values.devices) }, (_, index) => ({
  deviceId: `device-${index}`,
  platform: index % 2 === 0 ? 'android' : 'ios',
  pushToken: `token-${index}`,
  userId: null,
  tags: { name: `User ${index}`, city: 'Seoul' },
  language: languages[index % (languages.length + 1)] ?? null,
}));
const pool = new RenderPool({ threads: 2, timeoutMs: 1000 });

/** CPU milliseconds of the process (render threads included) to render and map every device's push. */
async function cpuMs(notification: PreparedNotification): Promise<number> {
  const start = process.cpuUsage();
  for (let from = 0; from < devices.length; from += batchSize) {
    const { rendered } = await renderPushes(pool, 'bench', notification, devices.slice(from, from + batchSize));
    for (const push of rendered) {
      const outgoing = toOutgoing(notification, push);
      if (outgoing.platform === 'android') fcmMessageFor(outgoing);
      else apnsNotificationFor(outgoing, 'bench.topic');
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const plain = prepared({});
const withOptions = prepared(everyOption);
await cpuMs(plain);
await cpuMs(withOptions);
const runs = { plain: [] as number[], options: [] as number[] };
for (let round = 0; round < Number(values.rounds); round++) {
  runs.plain.push(await cpuMs(plain));
  runs.options.push(await cpuMs(withOptions));
}
await pool.close();
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const perPushUs = (ms: number) => Math.round((ms * 100_000) / devices.length) / 100;
const result = {
  devices: devices.length,
  plainCpuUsPerPush: perPushUs(median(runs.plain)),
  optionsCpuUsPerPush: perPushUs(median(runs.options)),
  ratio: Math.round((median(runs.options) / median(runs.plain)) * 1000) / 1000,
};
console.log(values.json ? JSON.stringify(result) : result);
