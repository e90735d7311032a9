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

  it('takes the first occurrence of a time the clocks repeat when they fall back, and a skipped one as they jump past', () => {
    // Sydney falls back at 03:00 AEDT on 4 April 2027: 02:00 to 02:59 comes twice, first at +11:00.
    expect(nextLocalTime(at('2027-04-03T14:00:00Z'), 'Australia/Sydney', '02:30')).toBe(at('2027-04-03T15:30:00Z'));
    // New York fell back at 02:00 EDT on 1 November 2026: 01:30 came first at 05:30Z.
    expect(nextLocalTime(at('2026-11-01T04:00:00Z'), 'America/New_York', '01:30')).toBe(at('2026-11-01T05:30:00Z'));
    // From after the first occurrence, the next day's: 01:30 EST, not 00:30.
    expect(nextLocalTime(at('2026-11-01T05:40:00Z'), 'America/New_York', '01:30')).toBe(at('2026-11-02T06:30:00Z'));
    // After the change, the wall clock runs at the new offset: 03:00 EST.
    expect(nextLocalTime(at('2026-11-01T04:00:00Z'), 'America/New_York', '03:00')).toBe(at('2026-11-01T08:00:00Z'));
    // 02:30 does not exist on 14 March 2027 in New York: the clocks jump from 02:00 EST to 03:00 EDT.
    expect(nextLocalTime(at('2027-03-14T05:00:00Z'), 'America/New_York', '02:30')).toBe(at('2027-03-14T07:30:00Z'));
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
