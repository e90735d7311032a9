import { Type, type Static } from 'typebox';
import { TimeZone } from './device.ts';
import { Conversion, ConversionSettings } from './conversions.ts';

/** A wall-clock time of day, 00:00 to 23:59. */
export const ClockTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  errorMessage: 'must be a time of day as HH:MM, 00:00 to 23:59',
});

export const QuietHours = Type.Object({ start: ClockTime, end: ClockTime }, { additionalProperties: false });
export type QuietHours = Static<typeof QuietHours>;

export const maxFrequencyCap = 1000;
export const maxFrequencyWindowHours = 720;

export const FrequencyCap = Type.Object(
  {
    max: Type.Integer({
      minimum: 1,
      maximum: maxFrequencyCap,
      errorMessage: `must be a whole number from 1 to ${maxFrequencyCap}`,
    }),
    windowHours: Type.Integer({
      minimum: 1,
      maximum: maxFrequencyWindowHours,
      errorMessage: `must be a whole number of hours from 1 to ${maxFrequencyWindowHours}`,
    }),
  },
  { additionalProperties: false },
);
export type FrequencyCap = Static<typeof FrequencyCap>;

/**
 * When a project's pushes may reach its devices (CONTRACTS §15), quiet hours and the cap off unless set; and the events
 * that count as its pushes' conversions (§19).
 */
export const ProjectSettings = Type.Object({
  defaultTimezone: Type.String(),
  quietHours: Type.Union([QuietHours, Type.Null()]),
  frequencyCap: Type.Union([FrequencyCap, Type.Null()]),
  conversions: Type.Array(Conversion),
});
export type ProjectSettings = Static<typeof ProjectSettings>;

export const defaultProjectSettings: ProjectSettings = {
  defaultTimezone: 'UTC',
  quietHours: null,
  frequencyCap: null,
  conversions: [],
};

/** Each field given is replaced; a null turns quiet hours or the cap off, an empty list the conversions. */
export const UpdateProjectSettingsBody = Type.Object(
  {
    defaultTimezone: Type.Optional(TimeZone),
    quietHours: Type.Optional(
      Type.Union([QuietHours, Type.Null()], { errorMessage: 'must be {"start": "HH:MM", "end": "HH:MM"} or null' }),
    ),
    frequencyCap: Type.Optional(
      Type.Union([FrequencyCap, Type.Null()], {
        errorMessage: 'must be {"max": 1-1000, "windowHours": 1-720} or null',
      }),
    ),
    conversions: Type.Optional(ConversionSettings),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProjectSettingsBody = Static<typeof UpdateProjectSettingsBody>;
