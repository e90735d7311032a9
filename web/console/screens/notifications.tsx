import { useEffect, useRef, useState } from 'preact/hooks';
import type { NotificationView } from '../../../src/schemas/notification.ts';
import { api, query } from '../api.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';

const pageSize = 20;

function Funnel({ stats }: { stats: NotificationView['stats'] }) {
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
        <span data-stat="unsubscribed">unsubscribed {stats.unsubscribed}</span>
      </p>
    </div>
  );
}

/** A notification created this long ago and still queued is scheduled (sendAt), not about to be sent. */
const startingWithinMs = 60_000;

const isMoving = (notification: NotificationView) =>
  notification.status === 'sending' ||
  (notification.status === 'queued' && Date.now() - Date.parse(notification.createdAt) < startingWithinMs);

export function NotificationsScreen() {
  const { base } = useProject();
  const [older, setOlder] = useState<NotificationView[]>([]);
  const [olderEnd, setOlderEnd] = useState(false);
  const latest = useLoad(
    () => api<NotificationView[]>('GET', `${base}/notifications${query({ limit: pageSize })}`),
    [base],
  );
  // Rows that newer notifications pushed out of the newest page stay, between it and the older pages loaded: the older
  // pages start after the row that was last when they were loaded.
  const [pushedOut, setPushedOut] = useState<NotificationView[]>([]);
  const previousLatest = useRef<NotificationView[]>([]);
  useEffect(() => {
    const fresh = latest.data;
    if (!fresh) return;
    const freshIds = new Set(fresh.map((item) => item.id));
    const dropped = previousLatest.current.filter((item) => !freshIds.has(item.id));
    previousLatest.current = fresh;
    if (dropped.length > 0) setPushedOut((kept) => [...dropped, ...kept.filter((item) => !freshIds.has(item.id))]);
  }, [latest.data]);
  const shownIds = new Set<string>();
  const shown = [...(latest.data ?? []), ...pushedOut, ...older].filter(
    (item) => !shownIds.has(item.id) && shownIds.add(item.id),
  );
  // Live status: the newest page is read again every 2 s while a notification on screen is being sent, and every 30 s
  // after, for the clicks that keep arriving; on the starter plan that is at most 30 of the 100 requests a minute. A
  // scheduled send waiting for its time does not count as being sent.
  // Only the newest page is read again, so only its rows decide.
  useInterval(latest.reload, (latest.data ?? []).some(isMoving) ? 2000 : 30_000);

  const loadOlder = useAction(async (before: string) => {
    const page = await api<NotificationView[]>('GET', `${base}/notifications${query({ limit: pageSize, before })}`);
    setOlder([...older, ...page]);
    setOlderEnd(page.length < pageSize);
  });

  return (
    <LoadedView
      loaded={latest}
      empty="No notification yet: send one from the Send screen."
      isEmpty={() => shown.length === 0}
    >
      {() => (
        <>
          <table class="list">
            <caption class="visually-hidden">Notifications, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
                <th scope="col">Delivery</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((notification) => (
                <tr key={notification.id} data-notification={notification.id}>
                  <td>{formatTime(notification.createdAt)}</td>
                  <td class="message">
                    <strong>{notification.title ?? ''}</strong>
                    <div>{notification.body}</div>
                    <small class="muted">
                      <code>{notification.id}</code>
                    </small>
                  </td>
                  <td>
                    <span class={`status status-${notification.status}`} data-testid="status">
                      {notification.status}
                    </span>
                  </td>
                  <td>
                    <Funnel stats={notification.stats} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorMessage error={loadOlder.error} />
          {!olderEnd && shown.length >= pageSize && (
            <button
              type="button"
              class="secondary"
              disabled={loadOlder.running}
              onClick={() => loadOlder.run(shown.at(-1)!.id)}
            >
              Load older notifications
            </button>
          )}
        </>
      )}
    </LoadedView>
  );
}
