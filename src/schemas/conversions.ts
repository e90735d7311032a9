import { Type, type Static } from 'typebox';
import { EventType } from './events.ts';
import { TagKey } from './tags.ts';

export const maxConversions = 5;
export const maxConversionWindowHours = 720;
export const defaultConversionWindowHours = 24;
export const attributions = ['send', 'click'] as const;
export type Attribution = (typeof attributions)[number];

/** One conversion event as the customer gives it (CONTRACTS §19); the window and attribution have defaults. */
export const ConversionSetting = Type.Object(
  {
    event: EventType,
    windowHours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxConversionWindowHours,
        errorMessage: `must be a whole number of hours from 1 to ${maxConversionWindowHours}`,
      }),
    ),
    attribution: Type.Optional(Type.Enum(attributions, { errorMessage: `must be one of ${attributions.join(', ')}` })),
    valueField: Type.Optional(TagKey),
  },
  { additionalProperties: false },
);

export const ConversionSettings = Type.Array(ConversionSetting, {
  maxItems: maxConversions,
  errorMessage: `must be a list of at most ${maxConversions} conversion events`,
});
export type ConversionSettings = Static<typeof ConversionSettings>;

/** A conversion as stored and shown: its defaults filled in. */
export const Conversion = Type.Object({
  event: Type.String(),
  windowHours: Type.Integer(),
  attribution: Type.Enum(attributions),
  valueField: Type.Optional(Type.String()),
});
export type Conversion = Static<typeof Conversion>;

export function withConversionDefaults(settings: ConversionSettings): Conversion[] {
  return settings.map(({ event, windowHours, attribution, valueField }) => ({
    event,
    windowHours: windowHours ?? defaultConversionWindowHours,
    attribution: attribution ?? 'send',
    ...(valueField !== undefined && { valueField }),
  }));
}
