/** A number of seconds as a marketer types it: an amount and a unit. */
export const units = [
  ['seconds', 'seconds', 1],
  ['minutes', 'minutes', 60],
  ['hours', 'hours', 3600],
  ['days', 'days', 86_400],
] as const;
export type Unit = (typeof units)[number][0];

export interface Duration {
  amount: string;
  unit: Unit;
}

const secondsIn = (unit: Unit) => units.find(([name]) => name === unit)![2];

/** Seconds in the largest unit that holds them whole: 86400 is 1 day. */
export function durationOf(seconds: unknown): Duration {
  if (typeof seconds !== 'number') return { amount: '', unit: 'hours' };
  const unit = [...units].reverse().find(([, , size]) => seconds % size === 0)?.[0] ?? 'seconds';
  return { amount: String(seconds / secondsIn(unit)), unit };
}

/** The seconds typed; text that is no number goes as it is, for the API to name the field. */
export function secondsOf(duration: Duration): number {
  const amount = Number(duration.amount);
  return duration.amount.trim() === '' || !Number.isFinite(amount)
    ? (duration.amount as unknown as number)
    : Math.round(amount * secondsIn(duration.unit));
}

/** A duration in words: "2 days", "1 hour". */
export function durationWords(seconds: number): string {
  const { amount, unit } = durationOf(seconds);
  return `${amount} ${amount === '1' ? unit.slice(0, -1) : unit}`;
}
