import type { NotificationStats } from '../../../../src/schemas/notification.ts';

/** A send's conversions by event (CONTRACTS §19): subjects credited, and the sum of their values. */
export type ConversionCounts = NonNullable<NotificationStats['conversions']>;

/** Each conversion event credited so far, by its name: none until one is. */
export const conversionEntries = (conversions: ConversionCounts | undefined) =>
  Object.entries(conversions ?? {}).sort(([first], [second]) => first.localeCompare(second));

/** What the conversions of an event were worth, when their events carried a value. */
export const worth = ({ value }: { value: number }) => (value === 0 ? '' : `worth ${value.toLocaleString()}`);

/** The conversions beside the clicks of a send in the list: each event with its count and value. */
export function ConversionsLine({ conversions }: { conversions: ConversionCounts | undefined }) {
  const entries = conversionEntries(conversions);
  if (entries.length === 0) return null;
  return (
    <p class="funnel-losses" data-stat="conversions">
      converted:{' '}
      {entries.map(([event, counts], index) => (
        <span key={event} data-conversion={event}>
          {index > 0 && ' · '}
          <code class="name">{event}</code> {counts.count.toLocaleString()}
          {worth(counts) && ` (${worth(counts)})`}
        </span>
      ))}
    </p>
  );
}
