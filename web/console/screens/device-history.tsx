import { useState } from 'preact/hooks';
import type { DeviceSubscription } from '../../../src/schemas/device-list.ts';
import type { HistoryEntry } from '../../../src/schemas/history.ts';
import { api, query } from '../api.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';
import { reasonInWords } from '../words.ts';
import { useAction, useLoad } from '../hooks.ts';

const historyPage = 10;

export function Subscription({ subscription }: { subscription: DeviceSubscription }) {
  if (subscription.isSubscribed) return <span class="status status-completed">subscribed</span>;
  return (
    <span class="status status-failed">
      unsubscribed {formatTime(subscription.unsubscribedAt)}
      {subscription.reason && `: ${reasonInWords(subscription.reason)}`}
    </span>
  );
}

export function History({ deviceId }: { deviceId: string }) {
  const { base } = useProject();
  const [pages, setPages] = useState<HistoryEntry[][]>([]);
  const first = useLoad(
    () =>
      api<HistoryEntry[]>(
        'GET',
        `${base}/devices/${encodeURIComponent(deviceId)}/notification-history${query({ limit: historyPage })}`,
      ),
    [base, deviceId],
  );
  const more = useAction(async (before: string) => {
    const page = await api<HistoryEntry[]>(
      'GET',
      `${base}/devices/${encodeURIComponent(deviceId)}/notification-history${query({ limit: historyPage, before })}`,
    );
    setPages([...pages, page]);
  });
  const entries = [...(first.data ?? []), ...pages.flat()];
  const lastPage = pages.at(-1) ?? first.data ?? [];
  return (
    <LoadedView loaded={first} empty="No notification in the last 30 days." isEmpty={() => entries.length === 0}>
      {() => (
        <>
          <ol class="history" data-testid="history">
            {entries.map((entry) => (
              <li key={entry.notification.id + entry.sentAt}>
                <strong>{entry.notification.title ?? ''}</strong> {entry.notification.body}{' '}
                <small class="muted">sent {formatTime(entry.sentAt)}</small>
              </li>
            ))}
          </ol>
          <ErrorMessage error={more.error} />
          {lastPage.length >= historyPage && (
            <button
              type="button"
              class="secondary"
              disabled={more.running}
              onClick={() => more.run(entries.at(-1)!.notification.id)}
            >
              Older history
            </button>
          )}
        </>
      )}
    </LoadedView>
  );
}
