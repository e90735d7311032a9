import { describe, expect, it } from 'vitest';
import { localMinuteOfDay, nextLocalTime, quietUntil } from '../../src/targets/local-clock.ts';

const at = (iso: string) => Date.parse(iso);

describe('local clock', () => {
  it("reads a zone's wall clock, daylight saving included", () => {
    expect(localMinuteOfDay(at('2026-07-01T00:30:00Z'), 'Asia/Seoul')).toBe(9 * 60 + 30);
    expect(localMinuteOfDay(at('2026-07-01T00:30:00Z'), 'America/New_York')).toBe(20 * 60 + 30);
    expect(localMinuteOfDay(at('2026-01-01T00:30:00Z'), 'America/New_York')).toBe(19 * 60 + 30);
  });

  it('finds the next occurrence of a local time, the current minute included', () => {
    expect(nextLocalTime(at('2026-07-01T00:30:20Z'), 'Asia/Seoul', '09:30')).toBe(at('2026-07-01T00:30:00Z'));
    expect(nextLocalTime(at('2026-07-01T00:30:20Z'), 'Asia/Seoul', '09:00')).toBe(at('2026-07-02T00:00:00Z'));
    expect(nextLocalTime(at('2026-07-01T00:30:20Z'), 'Europe/Berlin', '09:00')).toBe(at('2026-07-01T07:00:00Z'));
  });

  it('holds inside quiet hours, overnight windows included, until they end', () => {
    const overnight = { start: '22:00', end: '08:00' };
    // 23:15 in Seoul: quiet until 08:00 there.
    expect(quietUntil(at('2026-07-01T14:15:30Z'), 'Asia/Seoul', overnight)).toBe(at('2026-07-01T23:00:00Z'));
    // 07:59 in Seoul: one minute left.
    expect(quietUntil(at('2026-06-30T22:59:10Z'), 'Asia/Seoul', overnight)).toBe(at('2026-06-30T23:00:00Z'));
    // 08:00 and 21:59 are outside; the end is not quiet.
    expect(quietUntil(at('2026-06-30T23:00:00Z'), 'Asia/Seoul', overnight)).toBeNull();
    expect(quietUntil(at('2026-07-01T12:59:00Z'), 'Asia/Seoul', overnight)).toBeNull();
    expect(quietUntil(at('2026-07-01T12:00:00Z'), 'UTC', { start: '09:00', end: '17:00' })).toBe(
      at('2026-07-01T17:00:00Z'),
    );
    expect(quietUntil(at('2026-07-01T12:00:00Z'), 'UTC', { start: '12:00', end: '12:00' })).toBeNull();
  });
});
