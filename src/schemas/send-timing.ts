import { Type, type Static } from 'typebox';
import { ClockTime } from './project-settings.ts';

/** When a send's pushes may reach devices (CONTRACTS §15); a journey takes the two opt-outs. */
export const DeliveryOptOuts = {
  ignoreQuietHours: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  ignoreFrequencyCap: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
};

export const maxThrottlePerMinute = 1_000_000;

export const SendTimingFields = {
  ...DeliveryOptOuts,
  localTime: Type.Optional(ClockTime),
  throttlePerMinute: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxThrottlePerMinute,
      errorMessage: `must be a whole number of pushes per minute from 1 to ${maxThrottlePerMinute}`,
    }),
  ),
};

const SendTiming = Type.Object(SendTimingFields);
export type SendTiming = Static<typeof SendTiming>;

/** The timing fields of a send or journey request as its notification stores them: only those set. */
export function sendTimingOf(body: SendTiming): SendTiming {
  const timing: SendTiming = {};
  if (body.ignoreQuietHours) timing.ignoreQuietHours = true;
  if (body.ignoreFrequencyCap) timing.ignoreFrequencyCap = true;
  if (body.localTime !== undefined) timing.localTime = body.localTime;
  if (body.throttlePerMinute !== undefined) timing.throttlePerMinute = body.throttlePerMinute;
  return timing;
}
