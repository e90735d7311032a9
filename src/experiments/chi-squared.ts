import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';

export interface VariantOutcome {
  /** Devices that did what the metric counts. */
  successes: number;
  /** Devices sent the variant. */
  trials: number;
}

/**
 * Pearson's chi-squared test of independence on the 2 x k table of the variants' successes and failures: the
 * probability of a difference at least this large if every variant had the same rate. With no success, or no failure,
 * anywhere (or fewer than two variants sent) there is nothing to tell apart: 1.
 */
export function chiSquaredPValue(outcomes: VariantOutcome[]): number {
  const sent = outcomes.filter((outcome) => outcome.trials > 0);
  const total = sent.reduce((sum, outcome) => sum + outcome.trials, 0);
  const successes = sent.reduce((sum, outcome) => sum + Math.min(outcome.successes, outcome.trials), 0);
  if (sent.length < 2 || successes === 0 || successes === total) return 1;
  let statistic = 0;
  for (const { successes: observed, trials } of sent) {
    const success = Math.min(observed, trials);
    const expectedSuccess = (trials * successes) / total;
    const expectedFailure = (trials * (total - successes)) / total;
    statistic += (success - expectedSuccess) ** 2 / expectedSuccess;
    statistic += (trials - success - expectedFailure) ** 2 / expectedFailure;
  }
  return 1 - chisquareCdf(statistic, sent.length - 1);
}
