import { describe, expect, it } from 'vitest';
import { testedVariant } from '../../src/experiments/experiment-groups.ts';

// Fixed ids, so that the figures below are the same in every run: the split is a hash of the two ids alone.
const notificationId = '6650c0ffee0000000000abcd';
const deviceIds = Array.from({ length: 10_000 }, (_, index) => `device-${index}`);

const countsOf = (testPercent: number, variants: number) => {
  const counts = new Map<number | null, number>();
  for (const deviceId of deviceIds) {
    const variant = testedVariant(notificationId, deviceId, testPercent, variants);
    counts.set(variant, (counts.get(variant) ?? 0) + 1);
  }
  return counts;
};

describe("an experiment's split of its audience (CONTRACTS §19)", () => {
  it('cuts the whole audience evenly among 10 variants, each within 10% of its tenth', () => {
    const counts = countsOf(100, 10);
    expect(counts.get(null)).toBeUndefined();
    expect([...counts.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const count of counts.values()) expect(Math.abs(count - 1_000)).toBeLessThan(100);
  });

  it('tests the given share, cut evenly among the variants, and keeps the rest waiting', () => {
    const counts = countsOf(20, 2);
    expect(Math.abs(counts.get(null)! - 8_000)).toBeLessThan(200);
    expect(Math.abs(counts.get(0)! - 1_000)).toBeLessThan(100);
    expect(Math.abs(counts.get(1)! - 1_000)).toBeLessThan(100);
  });

  it('answers the same for the same device and notification, and differently for another notification', () => {
    const first = deviceIds.map((deviceId) => testedVariant(notificationId, deviceId, 100, 10));
    expect(deviceIds.map((deviceId) => testedVariant(notificationId, deviceId, 100, 10))).toEqual(first);
    const other = deviceIds.map((deviceId) => testedVariant('6650c0ffee0000000000abce', deviceId, 100, 10));
    expect(other.filter((variant, index) => variant === first[index]).length).toBeLessThan(1_200);
  });
});
