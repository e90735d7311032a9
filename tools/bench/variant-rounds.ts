import { ratio } from './database-ceilings.ts';

/** What one send of a variant measured. */
export interface VariantRun {
  delivered: number;
  duplicates: number;
  seconds: number;
  /** From the request to the first delivery. */
  firstDeliverySeconds: number;
  deliverCpuSeconds: number;
  /** The CPU seconds of every process the send kept busy: the workers, the ingress, the servers, the sandbox. */
  cpuSecondsByProcess: Record<string, number>;
  unsubscribed: number;
  /** The devices the webhook receiver heard of as unsubscribed, when the variant has an endpoint. */
  unsubscribedReceived: number | null;
}

const rateOf = (run: Pick<VariantRun, 'delivered' | 'seconds'>) => run.delivered / run.seconds;

/**
 * A variant's sends over every round, as one: the rate is all deliveries over all their seconds, and each round's
 * ratio to its baseline's send of the same round is listed, so that a reader sees how far
 * one round's ratio strays on a shared machine.
 */
export function summarizeRounds(runs: VariantRun[], baselineRuns: VariantRun[]) {
  const total = runs.reduce(
    (sum, run) => ({
      delivered: sum.delivered + run.delivered,
      duplicates: sum.duplicates + run.duplicates,
      seconds: sum.seconds + run.seconds,
      deliverCpuSeconds: sum.deliverCpuSeconds + run.deliverCpuSeconds,
      unsubscribed: sum.unsubscribed + run.unsubscribed,
    }),
    { delivered: 0, duplicates: 0, seconds: 0, deliverCpuSeconds: 0, unsubscribed: 0 },
  );
  const baselineRate = rateOf({
    delivered: baselineRuns.reduce((sum, run) => sum + run.delivered, 0),
    seconds: baselineRuns.reduce((sum, run) => sum + run.seconds, 0),
  });
  return {
    ...total,
    seconds: Number(total.seconds.toFixed(2)),
    deliverCpuSeconds: Number(total.deliverCpuSeconds.toFixed(2)),
    deliveriesPerSecond: Math.round(rateOf(total)),
    baselineRate,
    ratioToBaseline: ratio(rateOf(total), baselineRate),
    ...(runs.length > 1 && {
      ratiosByRound: runs.map((run, round) => ratio(rateOf(run), rateOf(baselineRuns[round] ?? baselineRuns[0]!))),
    }),
    deliverCpuMsPerPush: Number(((total.deliverCpuSeconds * 1000) / Math.max(total.delivered, 1)).toFixed(3)),
    firstDeliverySecondsByRound: runs.map((run) => run.firstDeliverySeconds),
    unsubscribedReceived: runs.map((run) => run.unsubscribedReceived),
  };
}

/** The milliseconds of CPU each process spent per device of the audience, over all the runs. */
export function cpuMsPerDevice(runs: VariantRun[], audience: number): Record<string, number> {
  const total: Record<string, number> = {};
  for (const run of runs)
    for (const [name, seconds] of Object.entries(run.cpuSecondsByProcess)) total[name] = (total[name] ?? 0) + seconds;
  const devices = audience * runs.length;
  return Object.fromEntries(
    Object.entries(total).map(([name, seconds]) => [name, Number(((seconds * 1000) / devices).toFixed(3))]),
  );
}
