import { describe, expect, it } from 'vitest';
import { frequencyAllows } from '../../src/in-app/in-app-message-rules.ts';
import { inAppMessageErrors } from '../../src/in-app/in-app-message-rules.ts';

const now = new Date('2026-05-10T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('in-app frequency (CONTRACTS §16)', () => {
  it('shows a message never shown, whatever its frequency', () => {
    for (const frequency of ['once', 'always', { everyDays: 3 }] as const)
      expect(frequencyAllows(frequency, undefined, now)).toBe(true);
  });

  it('never shows "once" again, shows "always" each time, and everyDays only after that many days', () => {
    expect(frequencyAllows('once', hoursAgo(24 * 400), now)).toBe(false);
    expect(frequencyAllows('always', hoursAgo(0), now)).toBe(true);
    expect(frequencyAllows({ everyDays: 1 }, hoursAgo(23), now)).toBe(false);
    expect(frequencyAllows({ everyDays: 1 }, hoursAgo(24), now)).toBe(true);
    expect(frequencyAllows({ everyDays: 7 }, hoursAgo(24 * 6), now)).toBe(false);
  });
});

describe('in-app message rules past the schema', () => {
  it('names the trigger, a url button without url, a repeated button id, an end before the start and bad Liquid', () => {
    const errors = inAppMessageErrors({
      trigger: {},
      buttons: [
        { id: 'a', text: 'A', action: 'url' },
        { id: 'a', text: 'B', action: 'close' },
      ],
      startAt: '2026-05-10T12:00:00Z',
      endAt: '2026-05-10T12:00:00Z',
      title: '{% if %}',
      body: 'fine',
    });
    expect(errors.map((error) => error.path)).toEqual(['/buttons/0/url', '/buttons/1/id', '/endAt', '/title']);
  });

  it('accepts a well-formed message', () => {
    expect(
      inAppMessageErrors({
        trigger: { on: 'session_start' },
        buttons: [{ id: 'go', text: 'Go', action: 'url', url: 'https://a.example' }],
        startAt: '2026-05-10T12:00:00Z',
        endAt: '2026-05-11T12:00:00+09:00',
        title: 'Hi {{ device.tags.name }}',
        body: 'Body',
      }),
    ).toEqual([]);
  });
});
