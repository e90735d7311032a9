import type { NotificationView } from '../../../../src/schemas/notification.ts';

/** A share to one decimal, without a trailing ".0": 50%, 33.3%. */
export const rate = (part: number, whole: number) =>
  whole === 0 ? '—' : `${Number(((100 * part) / whole).toFixed(1))}%`;

/**
 * The funnel as bars, each as long as its share of the targeted devices, with its count and its rate of the step
 * before it; the losses (failed, unsubscribed, over the cap, not sent yet) beside it.
 */
export function FunnelChart({ stats }: { stats: NotificationView['stats'] }) {
  const steps: Array<[string, number, string]> = [
    ['Targeted', stats.targeted, 'devices in the audience'],
    ['Sent', stats.sent, `${rate(stats.sent, stats.targeted)} of targeted`],
    ['Clicked', stats.clicked, `${rate(stats.clicked, stats.sent)} of sent`],
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
        {steps.map(([name, value, share]) => (
          <li key={name} data-stat={name.toLowerCase()}>
            <span class="funnel-name">{name}</span>
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
