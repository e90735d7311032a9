import { describe, expect, it } from 'vitest';
import { maxRetryRounds, RetryRound } from '../../src/delivery/retry-rounds.ts';

/** The wait before the next run when one device of a batch in the given round was refused. */
function waitAfterRound(round: number, retryAfterMs = 0): number | undefined {
  const retry = new RetryRound(round - 1);
  retry.refused(['device'], retryAfterMs);
  return retry.next()?.delayMs;
}

describe('retry rounds of a delivery batch', () => {
  it('waits 0.25 s before the first retry round and twice as long before each next one, up to 4 s', () => {
    const waits = Array.from({ length: maxRetryRounds }, (_, index) => waitAfterRound(index + 1));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000]);
    expect(waits.reduce((sum, wait) => sum! + wait!, 0)).toBeLessThan(30_000);
  });

  it("waits for the gateway's Retry-After when it is longer than the backoff, and no shorter than the backoff", () => {
    expect(waitAfterRound(1, 7000)).toBe(7000);
    expect(waitAfterRound(5, 9000)).toBe(9000);
    expect(waitAfterRound(3, 100)).toBe(1000);
  });

  it('waits for the longest Retry-After of all the calls of a run, even one whose devices were all sent', () => {
    const retry = new RetryRound();
    expect(retry.refused(['a'], 3000)).toEqual({ again: ['a'], exhausted: [] });
    expect(retry.refused([], 6000)).toEqual({ again: [], exhausted: [] });
    expect(retry.refused(['b', 'c'], 0)).toEqual({ again: ['b', 'c'], exhausted: [] });
    expect(retry.next()).toEqual({ retryRound: 1, delayMs: 6000 });
  });

  it('sends the refused devices again in each retry round and saves the round it reached', () => {
    let previousRound: number | undefined;
    for (let round = 1; round <= maxRetryRounds; round += 1) {
      const retry = new RetryRound(previousRound);
      expect(retry.round).toBe(round);
      expect(retry.isLast).toBe(false);
      expect(retry.refused(['a', 'b'], 0)).toEqual({ again: ['a', 'b'], exhausted: [] });
      previousRound = retry.next()?.retryRound;
      expect(previousRound).toBe(round);
    }
  });

  it("leaves the devices refused in the last round to the batch's next attempt and schedules no further round", () => {
    const last = new RetryRound(maxRetryRounds);
    expect(last.isLast).toBe(true);
    expect(last.refused(['a', 'b'], 5000)).toEqual({ again: [], exhausted: ['a', 'b'] });
    expect(last.next()).toBeNull();
  });

  it('ends the attempt for a device that every run refuses only after its eleventh refusal', () => {
    let previousRound: number | undefined;
    let refusals = 0;
    let exhausted: string[] = [];
    // Bounded, so that rounds that never give up fail the test instead of hanging it.
    while (exhausted.length === 0 && refusals < 100) {
      const retry = new RetryRound(previousRound);
      refusals += 1;
      exhausted = retry.refused(['stubborn'], 0).exhausted;
      previousRound = retry.next()?.retryRound;
    }
    expect(exhausted).toEqual(['stubborn']);
    expect(refusals).toBe(11);
  });

  it('schedules no retry round when no device was refused, whatever the round and the Retry-After', () => {
    expect(new RetryRound().next()).toBeNull();
    const retry = new RetryRound(3);
    retry.refused([], 10_000);
    expect(retry.next()).toBeNull();
  });
});
