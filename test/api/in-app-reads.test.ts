import { describe, expect, it } from 'vitest';
import { ConnectionString } from 'mongodb-connection-string-url';
import type { CommandStartedEvent } from 'mongodb';
import { startIngress, useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { useResource } from '../support/use-resource.ts';
import { waitFor } from '../support/eventually.ts';

const config = testConfig();
const {
  ingress,
  projects: { project },
} = useIngress({ config, workers: ['event-ingest'], projects: { project: 'team' } });

/** A second ingress on the same database whose driver reports every command it sends. */
const monitoredUrl = new ConnectionString(config.mongoUrl);
monitoredUrl.searchParams.set('monitorCommands', 'true');
const watched = useResource(() => startIngress({ ...config, mongoUrl: monitoredUrl.toString() }));

const server = (method: string, path: string, body?: unknown) =>
  ingress.request(method, `/v1/projects/${project.projectId}${path}`, { key: project.apiKey, body });
const sdkDevice = (deviceId: string) => `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`;

async function register(deviceId: string, tags: Record<string, string | number>): Promise<void> {
  const answer = await ingress.request('PUT', sdkDevice(deviceId), {
    key: project.clientKey,
    body: { platform: 'web', tags },
  });
  expect(answer.status).toBe(200);
}

const offered = async (deviceId: string): Promise<string[]> => {
  const answer = await watched.request('GET', `${sdkDevice(deviceId)}/in-app-messages`, { key: project.clientKey });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((message: { id: string }) => message.id);
};

/** The collections the watched ingress's reads went to, one entry per command, while `run` ran. */
async function readsDuring(run: () => Promise<void>): Promise<string[]> {
  const client = watched.context.models.Device.db.getClient();
  const reads: string[] = [];
  const listen = (event: CommandStartedEvent) => {
    const collection = event.command[event.commandName];
    reads.push(`${event.commandName} ${typeof collection === 'string' ? collection : ''}`.trim());
  };
  client.on('commandStarted', listen);
  try {
    await run();
  } finally {
    client.off('commandStarted', listen);
  }
  return reads;
}

describe('in-app messages: what one SDK fetch costs the database (issue 37)', () => {
  it('reads the device alone, by _id, however many devices, messages and showings the project has', async () => {
    const segment = await server('POST', '/segments', {
      name: 'pro',
      match: 'all',
      conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }],
    });
    const created: string[] = [];
    for (const [index, frequency] of ['once', 'always', { everyDays: 1 }, 'once'].entries()) {
      const answer = await server('POST', '/in-app-messages', {
        name: `message ${index}`,
        status: 'active',
        layout: 'banner',
        title: 'Hi {{ device.tags.plan }}',
        body: `Offer ${index}`,
        trigger: { event: 'added_to_cart' },
        frequency,
        priority: index,
        ...(index === 0 && { segmentId: segment.body.data.id }),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      created.push(answer.body.data.id);
    }
    for (let index = 0; index < 30; index++) await register(`reader-${index}`, { plan: index % 2 ? 'free' : 'pro' });
    // Showings of every message on many devices: the device fetching has its own among them.
    const shown = created[3]!;
    for (let index = 0; index < 30; index += 3) {
      const answer = await ingress.request('POST', `${sdkDevice(`reader-${index}`)}/events`, {
        key: project.clientKey,
        body: { type: '@iam_displayed', data: { inAppMessageId: shown } },
      });
      expect(answer.status).toBe(200);
    }
    await waitFor(
      () => offered('reader-0'),
      (ids) => !ids.includes(shown),
    );

    const fetches = 20;
    const startedAt = Date.now();
    const reads = await readsDuring(async () => {
      for (let round = 0; round < fetches; round++) {
        expect(await offered('reader-0')).toEqual(created.slice(0, 3).reverse());
        expect(await offered('reader-1')).toEqual([created[3], created[2], created[1]]);
      }
    });
    // The project's active messages and their segments are kept by the process for two seconds: read again at most
    // once in each two seconds the fetches took.
    const refreshes = Math.ceil((Date.now() - startedAt) / 2000) + 1;
    const count = (read: string) => reads.filter((entry) => entry === read).length;
    expect(count('find devices')).toBe(2 * fetches);
    expect(count('find in_app_messages')).toBeLessThanOrEqual(refreshes);
    expect(count('find segments')).toBeLessThanOrEqual(refreshes);
    const cached = ['find in_app_messages', 'find segments'];
    expect(reads.filter((read) => read !== 'find devices' && !cached.includes(read))).toEqual([]);
  });
});
