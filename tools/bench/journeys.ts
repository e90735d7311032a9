/**
 * npm run bench:journeys -- [--subjects 100000] [--wait-seconds 60] [--await-seconds 60] [--entry-rate 1667] [--json]
 * npm run bench:journeys -- --seed-waiting 1000000 [--probes 1000]
 *
 * Local Redis and MongoDB-wire server, the sandbox gateways, the ingress and the Procfile's event-ingest, journey-steps,
 * send and deliver workers. N devices (one per subject). First the ceiling: a plain send to the N devices (requests of
 * 100 ids, 16 in flight), deliveries/s from the first POST to the last receipt. Then a journey (wait → push →
 * waitForEvent, which 10% of the subjects report → push to the rest): the N subjects enter through `POST /events`
 * (requests of 100, 16 in flight), paced at `--entry-rate` events/s (1,667: the issue's 100,000 within a minute; 0: as
 * fast as the ingress answers). Prints the entry latency after the event is accepted (the journey's `entered` count
 * sampled every 100 ms against the acceptance times, in order) and the time to each subject's first step; every step's
 * lateness against its due time; each push step's deliveries/s from its first due time to its last receipt, against the
 * plain send; duplicates (pushes received beyond those the travellers' records sent, or missing ones); the Redis and
 * MongoDB bytes per traveller (once all have reached the first step, the event-ingest queue's finished jobs removed);
 * every worker's peak RSS; the load average.
 * With --seed-waiting: that many travellers written directly before the workers start, waiting in the journey's wait
 * step a day long; then `probes` travellers written to fall due together at the push step 10 s later, and the plain
 * send to their devices: the Redis and MongoDB memory the waiting ones cost, the step runner's claim plan beside
 * them, how late the probes' push ran and its deliveries/s against the plain send's. A flow's push steps get their
 * travellers at the entry rate, which bounds their deliveries/s (1,667/s at the default rate); the probes' wave is a
 * push step's own rate.
 * Once the flow is over, the ceiling of a push step's own write (traveller-move-ceiling.ts: raw moves of travellers
 * past a push step) and the bound it sets: a push step's deliveries/s against the plain send's is at most
 * moves / (plain + moves), since each of its deliveries also moves its traveller on the same cores.
 * Targets (CONTRACTS §18, issue 47): entry p99 ≤ 5 s, lateness p99 ≤ 10 s, push steps ≥ 0.8 of the plain send,
 * 0 duplicates, ≤ 300 bytes of Redis per waiting traveller, every worker ≤ 300 MB.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import { openBenchEnvironment, projectApi } from './bench-environment.ts';
import { peakRssMiB, queueDepth, waitUntil } from './measure.ts';
import { seedDevices } from './seed-devices.ts';
import { checkTarget, ratio } from './database-ceilings.ts';
import { benchJourney } from './journey-measures.ts';
import { plainSend, runJourney } from './journey-flow.ts';
import { measureProbes, seedWaiting } from './journey-waiting.ts';
import { travellerMoveCeiling } from './traveller-move-ceiling.ts';

const { values } = parseArgs({
  options: {
    subjects: { type: 'string', default: '100000' },
    'wait-seconds': { type: 'string', default: '60' },
    'await-seconds': { type: 'string', default: '60' },
    'report-percent': { type: 'string', default: '10' },
    // The arrival: 100,000 subjects within a minute; 0 sends them as fast as the ingress answers.
    'entry-rate': { type: 'string', default: '1667' },
    'seed-waiting': { type: 'string', default: '0' },
    probes: { type: 'string', default: '1000' },
    'timeout-seconds': { type: 'string', default: '1800' },
    json: { type: 'boolean', default: false },
  },
});
const seeded = Number(values['seed-waiting']);
const subjects = seeded > 0 ? Number(values.probes) : Number(values.subjects);
const [waitSeconds, awaitSeconds] = [Number(values['wait-seconds']), Number(values['await-seconds'])];
const entryRate = Number(values['entry-rate']);
const workerQueues = ['event-ingest', 'journey-steps', 'send', 'deliver'] as const;
const log = (line: string) => process.stderr.write(`[journeys] ${line}\n`);
const load = () => loadavg().map((average) => Number(average.toFixed(2)));

const bench = await openBenchEnvironment('journeys', { sandbox: true });
const redis = createBlockingRedis(bench.env.REDIS_URL!);
try {
  const loadAtStart = load();
  await bench.startIngress();
  const startWorkers = () =>
    Object.fromEntries(workerQueues.map((name) => [`worker-${name}`, bench.spawnProcess(`worker-${name}`)]));
  const workersTakingJobs = async () => {
    await waitUntil(
      'every worker to take jobs',
      async () => (await Promise.all(workerQueues.map((name) => bench.queue(name).getWorkersCount()))).every(Boolean),
      180_000,
      200,
    );
    log('the workers take jobs');
  };
  // Seeded travellers are written before the workers start; a flow run's workers start with the devices' seeding.
  let workers = seeded > 0 ? {} : startWorkers();
  const project = await createProject(bench.models, { name: 'bench', plan: 'business' });
  await seedDevices(bench.models, project.projectId, subjects, () => ({}), { label: 'journeys' });
  const api = projectApi(bench.baseUrl, project);
  const deadline = Date.now() + Number(values['timeout-seconds']) * 1000;
  const context = { bench, redis, api, project, subjects, deadline, log };
  const journeyOf = async () => (await api('/journeys', benchJourney(waitSeconds, awaitSeconds))).id as string;

  let plain: Awaited<ReturnType<typeof plainSend>> | null = null;
  let measured: Awaited<ReturnType<typeof measureProbes>> | Awaited<ReturnType<typeof runJourney>>;
  if (seeded > 0) {
    const journeyId = await journeyOf();
    const waiting = await seedWaiting(context, journeyId, seeded);
    workers = startWorkers();
    await workersTakingJobs();
    measured = await measureProbes(context, journeyId, waiting);
    // After the probes: the Redis they are measured by holds none of the plain send's jobs.
    plain = await plainSend(context);
  } else {
    await workersTakingJobs();
    plain = await plainSend(context);
    measured = await runJourney(context, await journeyOf(), {
      waitSeconds,
      awaitSeconds,
      reportPercent: Number(values['report-percent']),
      entryRate,
    });
  }
  await waitUntil(
    'the send and deliver queues to drain',
    async () => {
      const depths = await Promise.all(['send', 'deliver'].map((name) => queueDepth(bench.queue(name as 'send'))));
      return depths.every((depth) => depth === 0);
    },
    Math.max(1000, deadline - Date.now()),
  );
  const peakRss = Object.fromEntries(
    await Promise.all(Object.entries(workers).map(async ([name, child]) => [name, await peakRssMiB(child.pid)])),
  ) as Record<string, number>;
  const largestWorker = Math.max(...Object.values(peakRss));
  // Once the flow is over, so that it shares the machine with nothing measured.
  const moveCeiling = plain ? await travellerMoveCeiling(bench.models, Math.min(subjects, 10_000)) : null;
  /**
   * The most a push step can reach against the plain send here: each of its deliveries costs a plain send's delivery
   * and its traveller's move on the same two cores, 1 / (1/plain + 1/moves), over plain.
   */
  const pushStepBoundToPlain =
    plain && moveCeiling ? ratio(moveCeiling.perSecond, plain.deliveriesPerSecond + moveCeiling.perSecond) : null;
  if (moveCeiling)
    log(
      `raw traveller moves: ${moveCeiling.perSecond}/s; a push step can reach at most ${pushStepBoundToPlain} of the plain send`,
    );
  const targets = [
    ...measured.targets,
    checkTarget('every worker peak RSS ≤ 300 MB', largestWorker, largestWorker <= 300),
  ];
  if (plain && 'pushRates' in measured)
    for (const [step, perSecond] of Object.entries(measured.pushRates))
      targets.push(
        checkTarget(
          `push step "${step}" deliveries/s ≥ 0.8 × a plain send to the same devices`,
          ratio(perSecond, plain.deliveriesPerSecond),
          perSecond >= 0.8 * plain.deliveriesPerSecond,
        ),
      );
  const result = {
    subjects,
    ...(seeded > 0 && { seededWaiting: seeded }),
    waitSeconds,
    awaitSeconds,
    entryRate,
    ...(plain && { plainSend: plain }),
    ...(moveCeiling && { travellerMoveCeiling: moveCeiling, pushStepBoundToPlain }),
    // A flow's first push step cannot deliver faster than its travellers fall due: the entry rate, over plain.
    ...(plain &&
      'entriesPerSecond' in measured && {
        entryRateToPlain: ratio(measured.entriesPerSecond, plain.deliveriesPerSecond),
      }),
    ...measured,
    peakRssMiB: peakRss,
    loadAverage: { atStart: loadAtStart, atEnd: load() },
    targets,
    services: bench.services.path,
  };
  process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
} finally {
  redis.disconnect();
  await bench.close();
}
