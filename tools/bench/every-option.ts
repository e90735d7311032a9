import type { MessageOptions } from '../../src/schemas/message-options.ts';

/** The languages of the bench's message with options; seeded devices carry one of them, or none. */
export const benchLanguages = ['ko', 'ja', 'pt', 'es', 'fr', 'de', 'it', 'zh', 'ru', 'ar'];

/**
 * Every message option of CONTRACTS §14 as the benches set them: two buttons (one with Liquid), ten localizations, ttl,
 * priority, collapseId, badge, sound.
 */
export const everyOption = {
  ttl: 3600,
  priority: 'normal',
  collapseId: 'bench-sale',
  badge: 1,
  sound: 'chime.caf',
  buttons: [
    { id: 'open', text: 'Open, {{ device.tags.name }}', url: 'https://bench.example/open' },
    { id: 'later', text: 'Later' },
  ],
  localizations: Object.fromEntries(
    benchLanguages.map((language) => [
      language,
      { title: `[${language}] {{ device.tags.name }}`, body: `[${language}] news` },
    ]),
  ),
} satisfies MessageOptions;
