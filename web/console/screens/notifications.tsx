import { useState } from 'preact/hooks';
import type { NotificationView } from '../../../src/schemas/notification.ts';
import { api, query } from '../api.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';

const pageSize = 20;
const unfinished = new Set<NotificationView['status']>(['queued', 'sending']);

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

export function NotificationsScreen() {
  const { base } = useProject();
  const [older, setOlder] = useState<NotificationView[]>([]);
  const [olderEnd, setOlderEnd] = useState(false);
  const latest = useLoad(
    () => api<NotificationView[]>('GET', `${base}/notifications${query({ limit: pageSize })}`),
    [base],
  );
  const shown = [
    ...(latest.data ?? []),
    ...older.filter((item) => !latest.data?.some((fresh) => fresh.id === item.id)),
  ];
  // Live status: the newest page is read again every 2 s while a notification on screen is being sent, and every 30 s
  // after, for the clicks that keep arriving; on the starter plan that is at most 30 of the 100 requests a minute.
  useInterval(latest.reload, shown.some((item) => unfinished.has(item.status)) ? 2000 : 30_000);

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
              onClick={() => loadOlder.run(shown.at(-1)!.createdAt)}
            >
              Load older notifications
            </button>
          )}
        </>
      )}
    </LoadedView>
  );
}
