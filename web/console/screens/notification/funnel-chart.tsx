import type { NotificationView } from '../../../../src/schemas/notification.ts';
import { conversionEntries, worth } from './conversions.tsx';

/** A share to one decimal, without a trailing ".0": 50%, 33.3%. */
export const rate = (part: number, whole: number) =>
  whole === 0 ? '—' : `${Number(((100 * part) / whole).toFixed(1))}%`;

/**
 * The funnel as bars, each as long as its share of the targeted devices, with its count and its rate of the step
 * before it; the losses (failed, unsubscribed, over the cap, not sent yet) beside it.
 */
export function FunnelChart({ stats }: { stats: NotificationView['stats'] }) {
  // Each step: its name, count, share and the name tests read it by.
  const steps: Array<[string, number, string, string]> = [
    ['Targeted', stats.targeted, 'devices in the audience', 'targeted'],
    ['Sent', stats.sent, `${rate(stats.sent, stats.targeted)} of targeted`, 'sent'],
    ['Clicked', stats.clicked, `${rate(stats.clicked, stats.sent)} of sent`, 'clicked'],
    // Beside the clicks, each conversion event: its rate per push sent, and its value.
    ...conversionEntries(stats.conversions).map(([event, counts]): [string, number, string, string] => [
      event,
      counts.count,
      [`${rate(counts.count, stats.sent)} of sent`, worth(counts)].filter(Boolean).join(', '),
      `conversion-${event}`,
    ]),
  ];
  const waiting = stats.targeted - stats.sent - stats.failed - stats.unsubscribed - stats.capped;
  const losses: Array<[string, number]> = [
    ['Failed', stats.failed],
    ['Unsubscribed', stats.unsubscribed],
    ['Over the frequency cap', stats.capped],
    ['Not sent yet', waiting],
  ];
  const widest = Math.max(stats.targeted, 1);
  return (
    <div class="funnel-chart" data-testid="funnel">
      <ol aria-label="Funnel">
        {steps.map(([name, value, share, stat]) => (
          <li key={stat} data-stat={stat}>
            <span class={stat === name.toLowerCase() ? 'funnel-name' : 'funnel-name id'}>{name}</span>
            <span class="funnel-bar" aria-hidden="true">
              <span style={{ width: `${(100 * value) / widest}%` }} />
            </span>
            <span class="funnel-value">
              <strong>{value.toLocaleString()}</strong> <span class="muted">{share}</span>
            </span>
          </li>
        ))}
      </ol>
      <ul class="funnel-losses" aria-label="Not delivered">
        {losses
          .filter(([, value]) => value > 0)
          .map(([name, value]) => (
            <li key={name}>
              {name}: <strong>{value.toLocaleString()}</strong> ({rate(value, stats.targeted)})
            </li>
          ))}
      </ul>
    </div>
  );
}
