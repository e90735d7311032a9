import { contentOf, parseContent, type MessageContent } from '../rendering/message-content.ts';
import { referencedDeviceTags } from '../rendering/referenced-tags.ts';
import type { MessageOptions } from '../schemas/message-options.ts';
import type { StoredVariant } from '../schemas/experiment.ts';
import type { Platform } from '../schemas/platforms.ts';
import { targetProjection, type TargetProjection } from '../targets/target-device.ts';
import { localizedContent } from '../rendering/localized-content.ts';

type StoredMessage = Parameters<typeof contentOf>[0] & {
  options?: MessageOptions | null;
  variants?: StoredVariant[] | null;
};

/**
 * Every content a message may render: its own, each localization's and each button's (as a body and a url), and each
 * of its experiment's variants' with their own.
 */
function renderedContents(message: StoredMessage): MessageContent[] {
  const content = contentOf(message);
  const options = message.options ?? {};
  const variants = (message.variants ?? []).flatMap(({ buttons, localizations, ...variant }) =>
    renderedContents({ ...variant, options: { buttons, localizations } }),
  );
  return [
    ...variants,
    content,
    ...Object.values(options.localizations ?? {}).map((localization) => localizedContent(content, localization)),
    ...(options.buttons ?? []).map((button) => contentOf({ body: button.text, url: button.url })),
  ];
}

/**
 * The device fields a send's fan-out reads: the delivery fields, only the tags its message renders (in any language
 * or button), and the device's language when it has localizations to choose among.
 */
export function fanOutProjection(message: StoredMessage): TargetProjection {
  const tags = new Set<string>();
  for (const content of renderedContents(message)) {
    const referenced = referencedDeviceTags(parseContent(content));
    if (referenced === 'all') return targetProjection('all', { language: hasLocalizations(message) });
    for (const tag of referenced) tags.add(tag);
  }
  return targetProjection([...tags], { language: hasLocalizations(message) });
}

const hasLocalizations = (message: StoredMessage): boolean =>
  Object.keys(message.options?.localizations ?? {}).length > 0 ||
  (message.variants ?? []).some((variant) => Object.keys(variant.localizations ?? {}).length > 0);

const silentPlatforms: Platform[] = ['android', 'ios'];

/**
 * The platforms a send reaches (CONTRACTS §14), for the target query to select: those of `platforms`, and never web
 * for a silent push, which a browser cannot take; undefined when every platform is targeted.
 */
export function targetPlatforms(options: MessageOptions | null | undefined): Platform[] | undefined {
  const chosen = options?.platforms;
  if (!options?.silent) return chosen;
  return chosen === undefined ? silentPlatforms : chosen.filter((platform) => silentPlatforms.includes(platform));
}
