import type { ServerDeviceView } from '../../../src/schemas/device.ts';
import type { DeviceListItem, DeviceSubscription } from '../../../src/schemas/device-list.ts';
import type { EventView } from '../../../src/schemas/events.ts';
import { api, query } from '../api.ts';
import { useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { href } from '../route.ts';
import { ConfirmButton } from '../save-controls.tsx';
import { LoadedView, Tags, formatTime } from '../ui.tsx';
import { inWords, platformWords } from '../words.ts';
import { valueAsTyped } from './condition-values.ts';
import { History, Subscription } from './device-history.tsx';
import { EventData } from './event-data.tsx';

export type FoundDevice = Partial<ServerDeviceView> &
  Pick<ServerDeviceView, 'id' | 'userId' | 'tags'> & {
    platform?: DeviceListItem['platform'];
    subscription: DeviceSubscription;
  };

const recentEvents = 5;

function RecentEvents({ deviceId }: { deviceId: string }) {
  const { base } = useProject();
  const events = useLoad(
    () => api<EventView[]>('GET', `${base}/events${query({ deviceId, limit: recentEvents })}`),
    [base, deviceId],
  );
  return (
    <LoadedView loaded={events} empty="No event from this device yet.">
      {(list) => (
        <ol class="history" data-testid="recent-events">
          {list.map((event) => (
            <li key={event.id}>
              <strong>{event.type}</strong> <small class="muted">{formatTime(event.receivedAt)}</small>
              <div>
                <EventData data={event.data} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </LoadedView>
  );
}

/** A device as a marketer reads it: who, where, in which language, subscribed or why not, what it got and did. */
export function DeviceProfile({
  device,
  round,
  erasing,
  onErase,
}: {
  device: FoundDevice;
  round: number;
  erasing: boolean;
  onErase(): void;
}) {
  return (
    <article class="device" aria-labelledby={`device-${device.id}`} data-device={device.id}>
      <h2 id={`device-${device.id}`}>
        Device <code>{device.id}</code>
      </h2>
      <dl class="facts">
        <dt>User</dt>
        <dd>{device.userId === null ? '—' : <a href={href('devices', 'user', device.userId)}>{device.userId}</a>}</dd>
        {device.platform && (
          <>
            <dt>Platform</dt>
            <dd>{inWords(platformWords, device.platform)}</dd>
          </>
        )}
        <dt>Language</dt>
        <dd>{device.language ?? 'not known'}</dd>
        <dt>Time zone</dt>
        <dd>{device.timezone ?? 'not known'}</dd>
        <dt>Subscription</dt>
        <dd>
          <Subscription subscription={device.subscription} />
        </dd>
        <dt>Tags</dt>
        <dd data-testid="tags">
          <Tags tags={device.tags} format={valueAsTyped} />
        </dd>
      </dl>
      <h3>Notification history</h3>
      <History key={round} deviceId={device.id} />
      <h3>Recent events</h3>
      <RecentEvents key={round} deviceId={device.id} />
      <ConfirmButton
        label="Erase device"
        question="Erase this device with its notification history, its events and their counts? It cannot be undone."
        disabled={erasing}
        onConfirm={onErase}
      />
    </article>
  );
}
