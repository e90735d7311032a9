import { Type, type Static } from 'typebox';
import { platforms } from './platforms.ts';
import { KeyedBy } from './common.ts';
import { Text } from './text.ts';

export const maxTtlSeconds = 28 * 24 * 3600;
export const maxButtons = 2;
export const maxLocalizations = 50;
export const priorities = ['high', 'normal'] as const;
export type Priority = (typeof priorities)[number];

const ShortText = (what: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000]*$', errorMessage: `${what} 1 to 64 characters` });

/** A button an app or browser shows under the notification; its text and url are Liquid, rendered per device. */
export const MessageButton = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9._:-]+$',
      errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 . _ : -',
    }),
    text: ShortText('must be'),
    url: Type.Optional(Text(2048)),
  },
  { additionalProperties: false },
);
export type MessageButton = Static<typeof MessageButton>;

/** What a device in one language is shown instead of the message's own fields (Liquid, rendered per device). */
export const Localization = Type.Object(
  {
    title: Type.Optional(Text(1024)),
    body: Type.Optional(Text(4096)),
    url: Type.Optional(Text(2048)),
    imageUrl: Type.Optional(Text(2048)),
  },
  { additionalProperties: false },
);
export type Localization = Static<typeof Localization>;

/** The content options (CONTRACTS §14), which templates take too. */
export const contentOptionFields = {
  buttons: Type.Optional(
    Type.Array(MessageButton, {
      maxItems: maxButtons,
      errorMessage: `must be an array of at most ${maxButtons} buttons`,
    }),
  ),
  localizations: Type.Optional(
    KeyedBy(Localization, {
      propertyNames: {
        type: 'string',
        maxLength: 35,
        format: 'language-tag',
        errorMessage: 'must be keyed by BCP 47 language tags such as ko or pt-BR',
      },
      maxProperties: maxLocalizations,
      errorMessage: `must be an object of at most ${maxLocalizations} languages, each {title?, body?, url?, imageUrl?}`,
    }),
  ),
};

/** How a push is delivered (CONTRACTS §14): sends and journeys take these beside the content options. */
export const deliveryOptionFields = {
  ttl: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: maxTtlSeconds,
      errorMessage: `must be a whole number of seconds from 0 to ${maxTtlSeconds}`,
    }),
  ),
  priority: Type.Optional(Type.Enum(priorities, { errorMessage: `must be one of ${priorities.join(', ')}` })),
  collapseId: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9._:-]{1,64}$',
      errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 . _ : -',
    }),
  ),
  badge: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, errorMessage: 'must be a whole number ≥ 0' })),
  sound: Type.Optional(ShortText('must be')),
  androidChannelId: Type.Optional(ShortText('must be')),
  silent: Type.Optional(Type.Boolean()),
  platforms: Type.Optional(
    Type.Array(Type.Enum(platforms), {
      minItems: 1,
      uniqueItems: true,
      errorMessage: `must be a non-empty subset of ${platforms.join(', ')}`,
    }),
  ),
};

export const MessageOptions = Type.Object({ ...contentOptionFields, ...deliveryOptionFields });
export type MessageOptions = Static<typeof MessageOptions>;
export const messageOptionNames = Object.keys(MessageOptions.properties) as Array<keyof MessageOptions>;

/** The options a body sets, as stored with the message and echoed in its view. */
export function optionsOf(body: Partial<Record<string, unknown>>): MessageOptions {
  const options: Record<string, unknown> = {};
  for (const name of messageOptionNames)
    if (body[name] !== undefined && body[name] !== null) options[name] = body[name];
  return options as MessageOptions;
}

/** Whether a body asks for a silent push (the body rule then does not apply). */
export const isSilent = { required: ['silent'], properties: { silent: { const: true } } };

/** A document's `options` field: absent when none is set, so a message without options is stored as before. */
export function messageOptionsField(options: MessageOptions): { options?: MessageOptions } {
  return Object.keys(options).length === 0 ? {} : { options };
}

/**
 * A silent push is data alone: no body (nor title) to show, and (for a send, which has data) data to carry. In the
 * schema, so that these are named beside every other offending field.
 */
export const silentRule = (withData: boolean) => ({
  if: isSilent,
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
  then: {
    ...(withData && { required: ['data'], errorMessage: 'is required for a silent push' }),
    properties: {
      body: { not: {}, errorMessage: 'must be absent from a silent push' },
      title: { not: {}, errorMessage: 'must be absent from a silent push' },
    },
  },
});
