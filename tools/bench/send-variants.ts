import { webhookEventTypes } from '../../src/schemas/webhook.ts';
import { everyOption } from './every-option.ts';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

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
  /**
   * The message's content split into two variants (CONTRACTS §19) tested on this share of the audience, the winner
   * picked by hand as soon as the test is out: test plus winner against the plain send to the same audience.
   */
  experimentTestPercent?: number;
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
  /** A two-variant experiment on 20% of the audience, its winner picked as soon as the test is out. */
  experiment: { experimentTestPercent: 20 },
  /** The plain send again: how far two sends that do the same work differ in this run. */
  repeat: {},
} satisfies Record<string, SendVariant>;
export type SendVariantName = 'options' | 'timing-controls' | 'unsubscribes' | 'webhooks' | 'experiment' | 'repeat';

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
 * The counting receiver (counting-receiver.ts) started in a process of its own; each variant's endpoint has a path
 * of its own on it (`endpointUrl(name)`), by which it counts the devices the device.unsubscribed events name.
 */
export async function startCountingReceiver() {
  const child = spawn(process.execPath, [resolve(import.meta.dirname, 'counting-receiver.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line').then(([line]) => line as string),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the webhook receiver exited (${code}) before it listened`);
    }),
  ]);
  const [hooksUrl, countsUrl] = firstLine.split(' ') as [string, string];
  const pathOf = (name: string) => `/hooks/${encodeURIComponent(name)}`;
  const tally = async () =>
    (await (await fetch(countsUrl)).json()) as { counts: Record<string, number>; unsubscribed: Record<string, number> };
  return {
    endpointUrl: (name: string) => `${new URL(hooksUrl).origin}${pathOf(name)}`,
    counts: async () => (await tally()).counts,
    unsubscribedDevices: async (name: string) => (await tally()).unsubscribed[pathOf(name)] ?? 0,
    close: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
