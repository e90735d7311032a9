import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../clients/node/src/retrying-fetch.ts';

describe("the typed client's reading of Retry-After (RFC 9110 §10.2.3)", () => {
  const now = Date.parse('2026-11-28T18:00:00Z');

  it('waits the seconds given, or until the date given, and never a negative time', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sat, 28 Nov 2026 18:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 28 Nov 2026 17:59:00 GMT', now)).toBe(0);
  });

  it('falls back to its own backoff when the header is absent or unreadable', () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
