import type { Deps } from '../deps.ts';
import type { StoredExperiment } from '../schemas/experiment.ts';
import { enqueueWinnerFanOut } from '../queues/send.ts';
import { chiSquaredPValue } from './chi-squared.ts';
import { variantStats, type VariantFigures } from './variant-stats.ts';

type DecideDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'queues'>;

/** CONTRACTS §19: the best variant wins an automatic decision when the difference is this unlikely by chance. */
export const significance = 0.05;

/** A variant's rate: what the metric counts, per device sent. */
function successesOf(figures: VariantFigures, metric: string): number {
  if (metric === 'clicked') return figures.stats.clicked;
  return figures.stats.conversions[metric.slice('conversion:'.length)]?.count ?? 0;
}

const rateOf = (figures: VariantFigures, metric: string) =>
  figures.stats.sent === 0 ? 0 : successesOf(figures, metric) / figures.stats.sent;

interface Decision {
  winner?: string;
  pValue: number;
}

function decide(experiment: StoredExperiment, figures: VariantFigures[], manual: string | undefined): Decision {
  const { metric } = experiment;
  const pValue = chiSquaredPValue(
    figures.map((variant) => ({ successes: successesOf(variant, metric), trials: variant.stats.sent })),
  );
  if (manual !== undefined) return { winner: manual, pValue };
  const best = figures.reduce((leader, variant) =>
    rateOf(variant, metric) > rateOf(leader, metric) ? variant : leader,
  );
  const wins = pValue < significance || experiment.ifNoWinner === 'sendBest';
  return { ...(wins && { winner: best.name }), pValue };
}

/**
 * Decides the experiment, by its test (auto) or by the variant given (manual), once: the decision is written only
 * while the experiment is still testing, in one conditional update, so that of any number of workers, retries and
 * requests exactly one decides. Then, when devices wait, the winner's fan-out is queued under one job id: a rerun after
 * a kill between the two writes queues it then, one while it runs adds nothing, and one after it ended (its job since
 * removed) finds the send completed and queues nothing. Answers false when the experiment was not testing.
 */
export async function decideExperiment(deps: DecideDeps, notificationId: string, manual?: string): Promise<boolean> {
  const fields = { projectId: 1, variants: 1, experiment: 1, variantTargeted: 1, status: 1 };
  const notification = await deps.models.Notification.findById(notificationId, fields).lean();
  const experiment = notification?.experiment;
  if (!notification || !experiment || notification.status === 'canceled') return false;
  let decided = false;
  if (experiment.status === 'testing') {
    const { winner, pValue } = decide(experiment, await variantStats(deps, notification), manual);
    const waiting = experiment.testPercent < 100;
    const outcome = {
      'experiment.status': waiting && winner !== undefined ? 'sending_winner' : 'completed',
      'experiment.pValue': pValue,
      'experiment.decidedAt': new Date(),
      'experiment.decidedBy': manual === undefined ? 'auto' : 'manual',
      ...(winner !== undefined && { 'experiment.winner': winner }),
    };
    const updated = await deps.models.Notification.updateOne(
      { _id: notificationId, 'experiment.status': 'testing' },
      { $set: outcome },
    );
    decided = updated.modifiedCount === 1;
  }
  // The waiting devices' fan-out ends the send, with the winner or, when none, with nothing sent to them.
  if (experiment.testPercent < 100 && notification.status !== 'completed')
    await enqueueWinnerFanOut(deps, notification);
  return decided;
}
