/**
 * Rounds of resending the devices a gateway asked to retry (429, 5xx, network) within one attempt of a batch, and the
 * wait before each round: 0.25, 0.5, 1, 2 s, then 4 s (or the gateway's Retry-After when longer). A 503 for some
 * pushes of a call is per request, not the gateway going away, so the waits stay short: a device refused a few times
 * in a row must not hold its notification in "sending" for minutes. Ten short rounds wait at most about
 * 28 s in all (without Retry-After). A device still refused after them is not failed: the attempt is
 * (RetriesExhaustedError), and the batch's next attempt, after BullMQ's backoff, starts the rounds again, so an outage
 * of the gateway loses no push before the batch's last attempt, whose devices a replay then sends (CONTRACTS §1).
 */
export const maxRetryRounds = 10;
const retryBaseMs = 250;
const maxRetryDelayMs = 4000;

/** The devices of one gateway call that asked to be retried, sorted by the round they were refused in. */
export interface Refusals {
  /** Sent again in the next round. */
  again: string[];
  /** Refused in the last round: left for the batch's next attempt. */
  exhausted: string[];
}

/** An attempt of a batch ends so when the gateway still refused some of its devices in the last retry round. */
export class RetriesExhaustedError extends Error {
  override name = 'RetriesExhaustedError';

  constructor(gateway: string, devices: number) {
    super(`${gateway} asked to retry ${devices} pushes in every retry round; the batch's next attempt sends them`);
  }
}

/**
 * The retry round of one run of a delivery batch: which of the refused devices are sent again, and when. A batch's
 * first run is round 1; the run after retry round n is round n + 1, and the job saves n between runs.
 */
export class RetryRound {
  readonly round: number;
  private retrying = 0;
  private retryAfterMs = 0;

  constructor(previousRound = 0) {
    this.round = previousRound + 1;
  }

  /** Past the last retry round a refused device is not sent again in this attempt. */
  get isLast(): boolean {
    return this.round > maxRetryRounds;
  }

  /** The devices one gateway call asked to retry, and the longest Retry-After it answered (0 when none). */
  refused(deviceIds: string[], retryAfterMs: number): Refusals {
    if (this.isLast) return { again: [], exhausted: deviceIds };
    this.retrying += deviceIds.length;
    this.retryAfterMs = Math.max(this.retryAfterMs, retryAfterMs);
    return { again: deviceIds, exhausted: [] };
  }

  /**
   * Once every call of the run has answered: the round the job saves and how long it waits before the next run, or
   * null when no device is to be sent again. The wait doubles each round up to its cap; a longer Retry-After wins.
   */
  next(): { retryRound: number; delayMs: number } | null {
    if (this.retrying === 0) return null;
    const backoffMs = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** (this.round - 1));
    return { retryRound: this.round, delayMs: Math.max(this.retryAfterMs, backoffMs) };
  }
}
