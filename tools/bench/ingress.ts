/**
 * npm run bench:ingress -- [--mix mixed|reads|registrations|re-registrations|tags-by-user|new-devices|previews|in-app] [--devices 100000] [--seconds 20] [--connections 64] [--json]
 *
 * Seeds N devices (bulk insert, user-<i> each) and runs autocannon against the ingress:
 *  - mixed: half SDK registrations (PUT, client key) of existing devices, half device reads (GET, server key);
 *  - reads: device reads only;            - registrations: SDK registrations only, each with a new token;
 *  - re-registrations: SDK registrations that change nothing (the token and tags stored: an app starting again);
 *  - tags-by-user: PATCH /users/tags {userId, tags} (server key, business project), with a tag-update worker;
 *  - new-devices: SDK registrations of devices not seen before, each recording @first_session, with an event-ingest
 *    worker; after the run, waits until every @first_session is stored and reports the backlog the run left;
 *  - previews: POST /notifications/preview of a normal template for an existing device (a read and a render in a
 *    render thread).
 *  - in-app: the SDK route GET .../devices/{id}/in-app-messages (client key) with 50 active messages, 8 of them to a
 *    segment, against the findOne-by-_id ceiling (issue 37: ≥ 0.7 of it, p99 < 50 ms at 32 connections).
 * Then, on the same server and at the same concurrency as the autocannon connections, the raw driver's ceiling of
 * the operation the mix is dominated by (findOne by _id; updateOne by _id; findOne by _id for re-registrations, which
 * write nothing; for tags by user the find by {projectId, userId}, and the find followed by the guarded update of each
 * device at the worker's, 16 and the connections' concurrency, the fastest counting; for the event-ingest worker an
 * insert of one event at its concurrency), and prints product / ceiling and whether the targets are met.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { seedDevices, seededToken } from './seed-devices.ts';
import { platforms } from '../../src/schemas/platforms.ts';
import { queueDepth, waitUntil } from './measure.ts';
import { eventIngestQueue } from '../../src/queues/event-ingest.ts';
import { workerConcurrency } from '../../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../../src/infra/queue-names.ts';
import { firstSessionEvent } from '../../src/schemas/automatic-events.ts';
import { seedInAppMessages } from './seed-in-app-messages.ts';
import {
  bestCeiling,
  checkTarget,
  deviceFindOneCeiling,
  deviceUpdateOneCeiling,
  devicesByUserCeiling,
  eventInsertCeiling,
  ratio,
  userTagUpdateCeiling,
  type Ceiling,
  type TargetCheck,
} from './database-ceilings.ts';

const mixes = [
  'mixed',
  'reads',
  'registrations',
  're-registrations',
  'tags-by-user',
  'new-devices',
  'previews',
  'in-app',
] as const;
type Mix = (typeof mixes)[number];

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    devices: { type: 'string', default: '2000' },
    mix: { type: 'string', default: 'mixed' },
    /** Seconds of each raw ceiling; the run's own seconds when absent. */
    'ceiling-seconds': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
if (!mixes.includes(values.mix as Mix)) throw new Error(`--mix must be one of ${mixes.join(', ')}`);
const mix = values.mix as Mix;
const deviceCount = Number(values.devices);
const connections = Number(values.connections);
const ceilingSeconds = Number(values['ceiling-seconds'] ?? values.seconds);

const bench = await openBenchEnvironment('ingress');
try {
  await bench.startIngress();
  if (mix === 'tags-by-user') bench.spawnProcess('worker-tag-update');
  if (mix === 'new-devices') bench.spawnProcess('worker-event-ingest');
  const { baseUrl, models } = bench;
  const project = await createProject(models, { name: 'bench', plan: 'business' });
  // Every mix reads or changes existing devices: seeded in bulk, outside the measured run.
  const seededTags = (index: number) => ({ plan: index % 2 === 0 ? 'pro' : 'free', visits: index % 10 });
  await seedDevices(models, project.projectId, deviceCount, seededTags, { label: `ingress ${mix}` });
  if (mix === 'in-app') await seedInAppMessages(bench, project.projectId);

  const randomIndex = () => Math.floor(Math.random() * deviceCount);
  const sdkBase = `/v1/sdk/projects/${project.projectId}/devices/`;
  const serverBase = `/v1/projects/${project.projectId}/devices/`;
  /** An SDK registration (PUT, client key) of the device the request's turn picks, with the body for it. */
  const sdkRegistration = (next: () => { deviceId: string; body: object }) => ({
    method: 'PUT' as const,
    setupRequest: (request: autocannon.Request) => {
      const { deviceId, body } = next();
      return {
        ...request,
        path: `${sdkBase}${deviceId}`,
        headers: { authorization: `Bearer ${project.clientKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
    },
  });
  const registration = sdkRegistration(() => ({
    deviceId: `device-${randomIndex()}`,
    body: { platform: 'android', pushToken: `token-${Math.random()}`, tags: { plan: 'pro', visits: 3 } },
  }));
  const reRegistration = sdkRegistration(() => {
    const index = randomIndex();
    return {
      deviceId: `device-${index}`,
      body: { platform: platforms[index % platforms.length], pushToken: seededToken(index), tags: seededTags(index) },
    };
  });
  const inAppFetch = {
    method: 'GET' as const,
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      path: `${sdkBase}device-${randomIndex()}/in-app-messages`,
      headers: { authorization: `Bearer ${project.clientKey}` },
    }),
  };
  const read = {
    method: 'GET' as const,
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      path: `${serverBase}device-${randomIndex()}`,
      headers: { authorization: `Bearer ${project.apiKey}` },
    }),
  };
  let newDevices = 0;
  const newDevice = sdkRegistration(() => {
    const index = newDevices++;
    return {
      deviceId: `new-${index}`,
      body: { platform: 'android', pushToken: `token-new-${index + 1}`, tags: { plan: 'free' } },
    };
  });
  let visits = 0;
  const tagsByUser = {
    method: 'PATCH' as const,
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      path: `/v1/projects/${project.projectId}/users/tags`,
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: `user-${randomIndex()}`, tags: { plan: 'team', visits: visits++ } }),
    }),
  };
  const preview = {
    method: 'POST' as const,
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      path: `/v1/projects/${project.projectId}/notifications/preview`,
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        deviceId: `device-${randomIndex()}`,
        title: 'Hello {{ device.tags.plan | capitalize }}',
        body: 'Visit {{ device.tags.visits | plus: 1 }}{% if device.tags.plan == "pro" %}: {{ data.offer }}{% endif %}',
        data: { offer: '20% off' },
      }),
    }),
  };
  // The ceilings first, on the same server at the same concurrency, with the ingress idle: measured after the run they
  // would meet the product's requests still in flight on the server (a slow update goes on after its client gave up).
  const limit = { concurrency: connections, seconds: ceilingSeconds };
  const ceilings: Record<string, Ceiling> = {};
  let ceilingPerSecond: number;
  if (mix === 'reads' || mix === 're-registrations' || mix === 'previews' || mix === 'in-app') {
    ceilings.findOne = await deviceFindOneCeiling(models, project.projectId, deviceCount, limit);
    ceilingPerSecond = ceilings.findOne.perSecond;
  } else if (mix === 'registrations') {
    ceilings.updateOne = await deviceUpdateOneCeiling(models, project.projectId, deviceCount, limit);
    ceilingPerSecond = ceilings.updateOne.perSecond;
  } else if (mix === 'mixed') {
    ceilings.updateOne = await deviceUpdateOneCeiling(models, project.projectId, deviceCount, limit);
    ceilings.findOne = await deviceFindOneCeiling(models, project.projectId, deviceCount, limit);
    // Half and half: the time of one of each, so the harmonic mean of the two ceilings.
    ceilingPerSecond = Math.round(2 / (1 / ceilings.updateOne.perSecond + 1 / ceilings.findOne.perSecond));
  } else if (mix === 'tags-by-user') {
    ceilings.findByUser = await devicesByUserCeiling(models, project.projectId, deviceCount, limit);
    // A request's whole database work, the find and the guarded update: the ceiling the ratio and the target face, at
    // the worker's jobs in flight, 16 and the connections', whichever the server serves fastest.
    ceilings.userTagUpdate = await bestCeiling(
      [workerConcurrency(queueNames.tagUpdate), 16, connections],
      (concurrency) => userTagUpdateCeiling(models, project.projectId, deviceCount, { ...limit, concurrency }),
    );
    ceilingPerSecond = ceilings.userTagUpdate.perSecond;
  } else {
    // A registration queues its @first_session alone, so the worker stores one event per job.
    ceilings.eventInsert = await eventInsertCeiling(models.Event.db.db!, project.projectId, {
      ...limit,
      concurrency: eventIngestQueue.defaultConcurrency,
      batchSize: 1,
    });
    ceilingPerSecond = ceilings.eventInsert.perSecond;
  }
  const requests = {
    mixed: [registration, read],
    reads: [read],
    registrations: [registration],
    're-registrations': [reRegistration],
    'tags-by-user': [tagsByUser],
    'new-devices': [newDevice],
    previews: [preview],
    'in-app': [inAppFetch],
  }[mix];
  /**
   * Waits until the worker has stored a @first_session for each device the run created: how many were still to store
   * when the run ended, and how fast that backlog drained once registrations stopped. The events are counted at the
   * end and once drained, and the queue in Redis polled between: polling the count would load the very server the
   * worker writes to. The queue holds a job per burst of new devices, not one per device, so its depth is no count
   * of events.
   */
  async function firstSessionsStored(created: number) {
    const eventIngest = bench.queue(queueNames.eventIngest);
    const storedFirstSessions = () =>
      models.Event.countDocuments({ projectId: project.projectId, type: firstSessionEvent });
    const backlogAtEnd = Math.max(0, created - (await storedFirstSessions()));
    const startedAt = performance.now();
    await waitUntil('the event-ingest queue to drain', async () => (await queueDepth(eventIngest)) === 0, 600_000, 100);
    const drainSeconds = (performance.now() - startedAt) / 1000;
    // Requests still in flight when the run stopped are answered after it, so a few more devices than counted exist.
    const stored = await storedFirstSessions();
    const drainPerSecond = Math.round(backlogAtEnd / drainSeconds);
    return { created, stored, backlogAtEnd, drainSeconds: Number(drainSeconds.toFixed(1)), drainPerSecond };
  }
  process.stderr.write(
    `[ingress] ${mix}: ${connections} connections for ${values.seconds} s over ${deviceCount} devices\n`,
  );
  const result = await autocannon({ url: baseUrl, connections, duration: Number(values.seconds), requests });
  const requestsPerSecond = Math.round(result.requests.average);
  const firstSessions = mix === 'new-devices' ? await firstSessionsStored(result['2xx']) : undefined;
  const targets: TargetCheck[] = [];
  if (mix === 'reads') {
    targets.push(
      checkTarget(
        `device reads at ${deviceCount} devices ≥ 0.8 × raw findOne ceiling`,
        ratio(requestsPerSecond, ceilingPerSecond),
        requestsPerSecond >= 0.8 * ceilingPerSecond,
      ),
      checkTarget('device reads p99 < 50 ms', result.latency.p99, result.latency.p99 < 50),
    );
  } else if (mix === 'in-app') {
    targets.push(
      checkTarget(
        `in-app fetches at ${deviceCount} devices, 50 active messages (8 to segments) ≥ 0.7 × raw findOne ceiling`,
        ratio(requestsPerSecond, ceilingPerSecond),
        requestsPerSecond >= 0.7 * ceilingPerSecond,
      ),
      checkTarget('in-app fetches p99 < 50 ms', result.latency.p99, result.latency.p99 < 50),
    );
  } else if (mix === 'previews') {
    targets.push(checkTarget('previews p99 < 50 ms', result.latency.p99, result.latency.p99 < 50));
  } else if (mix === 'registrations') {
    targets.push(
      checkTarget(
        `registrations at ${deviceCount} devices ≥ 0.6 × raw updateOne ceiling`,
        ratio(requestsPerSecond, ceilingPerSecond),
        requestsPerSecond >= 0.6 * ceilingPerSecond,
      ),
    );
  } else if (mix === 're-registrations') {
    targets.push(
      checkTarget(
        `re-registrations at ${deviceCount} devices ≥ 0.8 × raw findOne ceiling (they write nothing: a read each)`,
        ratio(requestsPerSecond, ceilingPerSecond),
        requestsPerSecond >= 0.8 * ceilingPerSecond,
      ),
    );
  } else if (mix === 'mixed') {
    const registrationsPerSecond = Math.round(requestsPerSecond / 2);
    targets.push(
      checkTarget(
        `registrations in the mix (${registrationsPerSecond}/s) ≥ 0.6 × their share of the raw 50/50 updateOne+findOne ceiling`,
        ratio(requestsPerSecond, ceilingPerSecond),
        requestsPerSecond >= 0.6 * ceilingPerSecond,
      ),
    );
  } else if (firstSessions) {
    targets.push(
      checkTarget(
        '@first_session keeps up with registrations: all stored, the backlog at the end drained within a second or faster than registrations came',
        firstSessions.drainPerSecond,
        (firstSessions.drainSeconds <= 1 || firstSessions.drainPerSecond >= requestsPerSecond) &&
          firstSessions.stored >= firstSessions.created,
      ),
    );
  } else {
    targets.push(
      checkTarget(
        `tags by userId at ${deviceCount} devices ≥ 300 requests/s (the raw database work of one allows ${ceilingPerSecond}/s)`,
        requestsPerSecond,
        requestsPerSecond >= 300,
      ),
    );
  }
  const summary = {
    mix,
    devices: deviceCount,
    seconds: Number(values.seconds),
    connections,
    requestsPerSecond,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    ...(firstSessions && { firstSessions }),
    ceilingPerSecond,
    ratioToCeiling: ratio(requestsPerSecond, ceilingPerSecond),
    ceilings,
    targets,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`${autocannon.printResult(result)}\n${JSON.stringify(summary, null, 2)}\n`);
} finally {
  await bench.close();
}
