import type { NotificationView } from '../../../src/schemas/notification.ts';
import { ConversionsLine } from './notification/conversions.tsx';

/** Targeted devices with no outcome yet: in flight, or waiting for their local time, quiet hours or a throttle. */
const notYetSent = (stats: NotificationView['stats']) =>
  stats.targeted - stats.sent - stats.failed - stats.unsubscribed - stats.capped;

export function Funnel({ stats }: { stats: NotificationView['stats'] }) {
  const steps: Array<[string, number]> = [
    ['targeted', stats.targeted],
    ['sent', stats.sent],
    ['clicked', stats.clicked],
  ];
  return (
    <div class="funnel">
      <ol aria-label="Delivery funnel">
        {steps.map(([name, value]) => (
          <li key={name} data-stat={name}>
            <span class="stat-name">{name}</span> <span class="stat-value">{value}</span>
            <meter min={0} max={Math.max(stats.targeted, 1)} value={value} aria-label={`${name} of targeted`} />
          </li>
        ))}
      </ol>
      <p class="funnel-losses">
        <span data-stat="failed">failed {stats.failed}</span> ·{' '}
        <span data-stat="unsubscribed">unsubscribed {stats.unsubscribed}</span> ·{' '}
        <span data-stat="capped">capped {stats.capped}</span>
        {notYetSent(stats) > 0 && (
          <>
            {' '}
            · <span data-stat="waiting">not sent {notYetSent(stats)}</span>
          </>
        )}
      </p>
      <ConversionsLine conversions={stats.conversions} />
    </div>
  );
}

/** A local-time send's zones (devices whose local time comes round together) whose every device has its outcome. */
export function ZoneProgress({ zones }: { zones: NonNullable<NotificationView['zones']> }) {
  return (
    <p class="funnel-losses" data-stat="zones">
      {zones.sent} of {zones.total} {zones.total === 1 ? 'zone' : 'zones'} sent
    </p>
  );
}
