/**
 * npm run bench:load [-- --seconds 60 --connections 500 --devices 1000 --json]
 * The ingress under many concurrent connections over the mixed traffic of a real day: SDK device registrations, device
 * reads, batches of 10 events, sends to a user and history reads on a team project, plus device reads on a starter
 * project that runs into its 100 requests a minute. Reports throughput, latency and the answers per endpoint and status,
 * and fails (exit 1) on any answer other than 2xx and the starter project's 429s, or on any connection error or timeout.
 * For scale, the raw driver's findOne-by-_id ceiling on the same server at the same concurrency (the cheapest request
 * of the mix; every request costs at least one such read) and requests/s over it.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createProject, type CreatedProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { seedDevices } from './seed-devices.ts';
import { deviceFindOneCeiling, ratio } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '500' },
    devices: { type: 'string', default: '1000' },
    'ceiling-seconds': { type: 'string', default: '15' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const log = (line: string) => process.stderr.write(`[load] ${line}\n`);

type Endpoint = 'register' | 'readDevice' | 'events' | 'send' | 'history' | 'starterRead';
interface Built {
  method: autocannon.Request['method'];
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Each request picks its endpoint at random, so every connection spreads over the whole mix however slow the run.
 * Registrations walk the devices in turn, as distinct phones do: two at once for one device is contention a real app
 * does not cause. Reads pick devices at random.
 */
function requestMix(team: CreatedProject, starter: CreatedProject): Record<Endpoint, () => Built> {
  const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const server = (key: string) => ({ authorization: `Bearer ${key}` });
  const teamServer = `/v1/projects/${team.projectId}`;
  const randomDevice = () => Math.floor(Math.random() * deviceCount);
  let nextRegistration = 0;
  return {
    register: () => ({
      method: 'PUT',
      path: `/v1/sdk/projects/${team.projectId}/devices/device-${nextRegistration++ % deviceCount}`,
      headers: json(team.clientKey),
      body: JSON.stringify({
        platform: 'android',
        pushToken: `load-${Math.random()}`,
        tags: { plan: 'pro', visits: 3 },
      }),
    }),
    readDevice: () => ({
      method: 'GET',
      path: `${teamServer}/devices/device-${randomDevice()}`,
      headers: server(team.apiKey),
    }),
    events: () => {
      const user = `user-${randomDevice()}`;
      const events = Array.from({ length: 10 }, (_, index) => ({
        type: 'page_view',
        subjectType: 'user',
        subjectId: user,
        data: { page: index, at: Date.now() },
      }));
      return {
        method: 'POST',
        path: `${teamServer}/events`,
        headers: json(team.apiKey),
        body: JSON.stringify({ events }),
      };
    },
    send: () => ({
      method: 'POST',
      path: `${teamServer}/notifications`,
      headers: json(team.apiKey),
      body: JSON.stringify({
        targetType: 'userId',
        targetIds: [`user-${randomDevice()}`],
        title: 'Hi {{ device.tags.plan }}',
        body: 'Load test',
      }),
    }),
    history: () => ({
      method: 'GET',
      path: `${teamServer}/devices/device-${randomDevice()}/notification-history?limit=10`,
      headers: server(team.apiKey),
    }),
    starterRead: () => ({
      method: 'GET',
      path: `/v1/projects/${starter.projectId}/devices/device-0`,
      headers: server(starter.apiKey),
    }),
  };
}

const bench = await openBenchEnvironment('load');
let failed = true;
try {
  // Warnings are left out: the requests still in flight when the run ends meet a closing MongoDB client and log one each.
  await bench.startIngress({ LOG_LEVEL: 'error' });
  const team = await createProject(bench.models, { name: 'load team', plan: 'team' });
  const starter = await createProject(bench.models, { name: 'load starter', plan: 'starter' });
  await seedDevices(bench.models, team.projectId, deviceCount, () => ({ plan: 'pro' }), { label: 'load team' });
  await seedDevices(
    bench.models,
    starter.projectId,
    1,
    () => ({ plan: 'pro' }),
    () => undefined,
  );
  // The ceiling first, with the ingress idle: after the run it would share the server with requests still in flight.
  const ceiling = await deviceFindOneCeiling(bench.models, team.projectId, deviceCount, {
    concurrency: Number(values.connections),
    seconds: Number(values['ceiling-seconds']),
  });
  log(`seeded ${deviceCount} devices; ${values.connections} connections for ${values.seconds} s`);

  const counts = new Map<string, number>();
  const mix = requestMix(team, starter);
  const endpoints = Object.keys(mix) as Endpoint[];
  const result = await autocannon({
    url: bench.baseUrl,
    connections: Number(values.connections),
    duration: Number(values.seconds),
    timeout: 30,
    requests: [
      {
        setupRequest: (request, context) => {
          const endpoint = endpoints[Math.floor(Math.random() * endpoints.length)]!;
          (context as { endpoint?: Endpoint }).endpoint = endpoint;
          return { ...request, ...mix[endpoint]() };
        },
        onResponse: (status, _body, context) => {
          const key = `${(context as { endpoint?: Endpoint }).endpoint} ${status}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        },
      },
    ],
  });

  const byEndpoint: Record<string, Record<string, number>> = {};
  for (const [key, count] of [...counts].sort()) {
    const [endpoint, status] = key.split(' ') as [string, string];
    byEndpoint[endpoint] = { ...byEndpoint[endpoint], [status]: count };
  }
  // Only the starter project may be refused, and only with 429: everything else is an error of the ingress.
  const unexpected = [...counts].filter(([key]) => {
    const [endpoint, status] = key.split(' ') as [Endpoint, string];
    return !status.startsWith('2') && !(endpoint === 'starterRead' && status === '429');
  });
  const requestsPerSecond = Math.round(result.requests.average);
  const summary = {
    devices: deviceCount,
    seconds: Number(values.seconds),
    connections: Number(values.connections),
    requests: result.requests.total,
    requestsPerSecond,
    findOneCeilingPerSecond: ceiling.perSecond,
    ratioToFindOneCeiling: ratio(requestsPerSecond, ceiling.perSecond),
    ceilings: { findOne: ceiling },
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
    ),
    byEndpoint,
    connectionErrors: result.errors,
    timeouts: result.timeouts,
    unexpected: Object.fromEntries(unexpected),
  };
  failed = unexpected.length > 0 || result.errors > 0 || result.timeouts > 0;
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else
    process.stdout.write(
      `${autocannon.printResult(result)}\n${JSON.stringify(summary, null, 2)}\n${failed ? 'FAILED: answers other than 2xx and the starter 429s' : 'OK: no errors other than 429'}\n`,
    );
} finally {
  await bench.close();
}
process.exit(failed ? 1 : 0);
