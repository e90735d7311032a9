import { describe, expect, it } from 'vitest';
import { chosenLocalization, localizationKeys, localizedContent } from '../../src/rendering/localized-content.ts';
import { expiresAt } from '../../src/delivery/push-expiry.ts';

describe('the localization a device gets (CONTRACTS §14)', () => {
  const keys = localizationKeys({ ko: {}, pt: {}, 'zh-Hant': {} });
  it.each([
    ['ko', 'ko'],
    ['pt-BR', 'pt'],
    ['zh-Hant', 'zh-Hant'],
    ['zh-hant', 'zh-Hant'],
    ['zh-Hans', null],
    ['en', null],
    [null, null],
  ])('a device in %j gets %j', (language, key) => {
    expect(chosenLocalization(keys, language)).toBe(key);
  });

  it('replaces only the fields the localization gives', () => {
    const own = { title: 'Hi', body: 'Hello', url: 'https://x.example', imageUrl: null };
    expect(localizedContent(own, { body: 'Olá' })).toEqual({ ...own, body: 'Olá' });
  });
});

describe('when a push held here expires', () => {
  const createdAt = new Date('2026-01-01T00:00:00Z');
  const sent = (ttl: number | undefined, sendFrom = createdAt) => ({ createdAt, sendFrom, options: { ttl } });
  it('is when it was meant to go (creation, sendAt or the end of its hold) plus its ttl; a ttl of 0 is left to the gateway', () => {
    expect(expiresAt(sent(60), {})).toBe(createdAt.getTime() + 60_000);
    expect(expiresAt(sent(60, new Date(createdAt.getTime() + 1000)), {})).toBe(createdAt.getTime() + 61_000);
    expect(expiresAt(sent(60), { heldUntil: createdAt.getTime() + 5000 })).toBe(createdAt.getTime() + 65_000);
    expect(expiresAt(sent(undefined), {})).toBe(createdAt.getTime() + 28 * 24 * 3600 * 1000);
    expect(expiresAt(sent(0), { heldUntil: createdAt.getTime() + 5000 })).toBe(Number.POSITIVE_INFINITY);
  });
});
