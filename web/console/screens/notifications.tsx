import { useEffect, useRef, useState } from 'preact/hooks';
import type { NotificationView } from '../../../src/schemas/notification.ts';
import { api, query } from '../api.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ConfirmButton } from '../save-controls.tsx';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';
import { href, type ScreenProps } from '../route.ts';
import { NotificationPage } from './notification-page.tsx';
import { Funnel, ZoneProgress } from './notification-funnel.tsx';
import { type Column, DataTable } from '../layout.tsx';

const pageSize = 20;
const catchUpPageSize = 100;

/** A notification created this long ago and still queued is scheduled (sendAt), not about to be sent. */
const startingWithinMs = 60_000;

const isMoving = (notification: NotificationView) =>
  notification.status === 'sending' ||
  (notification.status === 'queued' && Date.now() - Date.parse(notification.createdAt) < startingWithinMs);

/** The fetched rows first (newer, and with the statuses just read), then the held rows they do not replace. */
function merge(fetched: NotificationView[], held: NotificationView[]): NotificationView[] {
  const fetchedIds = new Set(fetched.map((item) => item.id));
  return [...fetched, ...held.filter((item) => !fetchedIds.has(item.id))];
}

/**
 * The newest rows down to the first one already held, page after page: more notifications than a page may have been
 * created since the last read, and a row between them and the held ones would otherwise never be read. It reads on
 * past held rows that were still being sent, so that their statuses stay live too.
 */
async function readSince(base: string, held: NotificationView[]): Promise<NotificationView[]> {
  const heldIds = new Set(held.map((item) => item.id));
  let moving = held.filter(isMoving).map((item) => item.id);
  const fetched: NotificationView[] = [];
  let limit = pageSize;
  for (;;) {
    const before = fetched.at(-1)?.id;
    const page = await api<NotificationView[]>('GET', `${base}/notifications${query({ limit, before })}`);
    fetched.push(...page);
    const pageIds = new Set(page.map((item) => item.id));
    moving = moving.filter((id) => !pageIds.has(id));
    const reachedHeld = held.length === 0 || fetched.some((item) => heldIds.has(item.id));
    if (page.length < limit || (reachedHeld && moving.length === 0)) return fetched;
    // Catching up takes bigger pages: fewer requests against the plan's rate limit.
    limit = catchUpPageSize;
  }
}

/** The list's columns; a queued or sending row offers to cancel its send through `cancel`. */
function columns(cancel: { running: boolean; run(id: string): Promise<unknown> }): Column<NotificationView>[] {
  return [
    { label: 'Created', kind: 'when', cell: (notification) => formatTime(notification.createdAt) },
    {
      label: 'Message',
      kind: 'message',
      cell: (notification) => (
        <>
          <strong>{notification.title ?? ''}</strong>
          <div>{notification.body}</div>
          <small class="muted">
            <code>{notification.id}</code>
          </small>{' '}
          <a href={href('notifications', notification.id)}>Details</a>
        </>
      ),
    },
    {
      label: 'Status',
      cell: (notification) => (
        <>
          <span class={`status status-${notification.status}`} data-testid="status">
            {notification.status}
          </span>
          {(notification.status === 'queued' || notification.status === 'sending') && (
            <ConfirmButton
              label="Cancel send"
              question={
                notification.status === 'queued'
                  ? 'Cancel it? Nothing of it will be sent.'
                  : 'Cancel it? What is still waiting (local time, quiet hours, throttle) will not be sent.'
              }
              disabled={cancel.running}
              onConfirm={() => void cancel.run(notification.id)}
            />
          )}
        </>
      ),
    },
    {
      label: 'Delivery',
      cell: (notification) => (
        <>
          <Funnel stats={notification.stats} />
          {notification.zones && <ZoneProgress zones={notification.zones} />}
        </>
      ),
    },
  ];
}

/** The list, or the page of the notification its address names (`#/notifications/{id}`). */
export function NotificationsScreen({ path }: ScreenProps) {
  const [opened] = path;
  if (opened !== undefined) return <NotificationPage key={opened} id={opened} />;
  return <NotificationList />;
}

function NotificationList() {
  const { base } = useProject();
  // Every row loaded, newest first: the newest read again on each refresh, and the older pages loaded on demand.
  const [rows, setRows] = useState<NotificationView[]>([]);
  const [olderEnd, setOlderEnd] = useState(false);
  const held = useRef<NotificationView[]>([]);
  const latest = useLoad(() => readSince(base, held.current), [base]);
  // A cancel's answer stands over any read before it: canceled is a status a notification never leaves.
  const [canceled, setCanceled] = useState<ReadonlyMap<string, NotificationView>>(new Map());
  const shown = merge(latest.data ?? [], rows).map((row) => canceled.get(row.id) ?? row);
  held.current = shown;
  useEffect(() => {
    const fresh = latest.data;
    if (fresh) setRows((kept) => merge(fresh, kept));
  }, [latest.data]);
  // Live status: the list is read again every 2 s while a notification on screen is being sent, and every 30 s after,
  // for the clicks that keep arriving; on the starter plan that is at most 30 of the 100 requests a minute. A
  // scheduled send waiting for its time does not count as being sent.
  useInterval(latest.reload, shown.some(isMoving) ? 2000 : 30_000);

  const loadOlder = useAction(async (before: string) => {
    const page = await api<NotificationView[]>('GET', `${base}/notifications${query({ limit: pageSize, before })}`);
    setRows((kept) => merge(kept, page));
    setOlderEnd(page.length < pageSize);
  });

  const cancel = useAction(async (id: string) => {
    try {
      const answer = await api<NotificationView>('POST', `${base}/notifications/${encodeURIComponent(id)}/cancel`);
      setCanceled((known) => new Map(known).set(id, answer));
    } catch (error) {
      // Refused because its send has started: the list shows where it stands now.
      latest.reload();
      throw error;
    }
  });

  return (
    <LoadedView
      loaded={latest}
      empty="No notification yet: send one from the Send screen."
      isEmpty={() => shown.length === 0}
    >
      {() => (
        <>
          {/* Above the list: a long list would leave it out of sight below. */}
          <ErrorMessage error={cancel.error} />
          <DataTable
            caption="Notifications, newest first"
            columns={columns(cancel)}
            rows={shown}
            rowKey={(notification) => notification.id}
            rowProps={(notification) => ({ 'data-notification': notification.id })}
          />
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
