import { webhookEventTypes } from '../../src/schemas/webhook.ts';
import { everyOption } from './every-option.ts';
import { startBenchReceiver } from './webhook-receiver.ts';

/** What a variant of the end-to-end send changes against the plain one, measured in the same run. */
export interface SendVariant {
  /** Project settings (CONTRACTS §15) set before the send. */
  settings?: unknown;
  /** Fields added to the notification. */
  message?: Record<string, unknown>;
  /** Every n-th device gets an `unregistered-` token, which the sandbox answers as a dead token. */
  unregisteredEvery?: number;
  /** A webhook endpoint subscribed to every event type, on a receiver in this process (CONTRACTS §17). */
  webhookEndpoint?: boolean;
  /** The variant whose rate this one is held to, run before it; the plain send when absent. */
  baseline?: SendVariantName;
}

/** HH:MM in UTC, the project's default zone, the given hours from now. */
const hourFromNow = (offsetHours: number) => new Date(Date.now() + offsetHours * 3_600_000).toISOString().slice(11, 16);

export const sendVariants = {
  /** Every message option of CONTRACTS §14. */
  options: { message: everyOption },
  /** A frequency cap and quiet hours set, covering no device now. */
  'timing-controls': {
    settings: {
      frequencyCap: { max: 10, windowHours: 24 },
      quietHours: { start: hourFromNow(6), end: hourFromNow(7) },
    },
  },
  /** 5% of the devices unsubscribed by the send (their tokens dead), no webhook endpoint. */
  unsubscribes: { unregisteredEvery: 20 },
  /** The same with an endpoint subscribed to every event: what the webhooks cost the send. */
  webhooks: { webhookEndpoint: true, unregisteredEvery: 20, baseline: 'unsubscribes' },
} satisfies Record<string, SendVariant>;
export type SendVariantName = 'options' | 'timing-controls' | 'unsubscribes' | 'webhooks';

export const isSendVariantName = (name: string): name is SendVariantName => Object.hasOwn(sendVariants, name);

/** The variants to run, in order, each preceded by its baseline when that is not asked for before it. */
export function withBaselines(names: SendVariantName[]): SendVariantName[] {
  const ordered: SendVariantName[] = [];
  for (const name of names) {
    const baseline = (sendVariants[name] as SendVariant).baseline;
    if (baseline && !ordered.includes(baseline)) ordered.push(baseline);
    if (!ordered.includes(name)) ordered.push(name);
  }
  return ordered;
}

/** The body to create an endpoint on the receiver for every event type. */
export const everyEventEndpoint = (url: string) => ({ url, events: [...webhookEventTypes] });

/**
 * A receiver counting the events of each type, and the devices the device.unsubscribed events name by the endpoint
 * they reached: `endpointUrl(name)` is a URL of the receiver of its own.
 */
export async function startCountingReceiver() {
  const counts = new Map<string, number>();
  const unsubscribedDevices = new Map<string, Set<string>>();
  const receiver = await startBenchReceiver((event, _arrivedAt, path) => {
    counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
    if (event.type !== 'device.unsubscribed' || !event.data.deviceId) return;
    const devices = unsubscribedDevices.get(path) ?? new Set<string>();
    devices.add(event.data.deviceId);
    unsubscribedDevices.set(path, devices);
  });
  const pathOf = (name: string) => `/hooks/${encodeURIComponent(name)}`;
  return {
    close: receiver.close,
    endpointUrl: (name: string) => `${new URL(receiver.url).origin}${pathOf(name)}`,
    counts: () => Object.fromEntries(counts),
    unsubscribedDevices: (name: string) => unsubscribedDevices.get(pathOf(name))?.size ?? 0,
  };
}
