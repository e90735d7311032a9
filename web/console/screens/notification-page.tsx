import { useState } from 'preact/hooks';
import type { NotificationView } from '../../../src/schemas/notification.ts';
import {
  deliveryOutcomes,
  type DeliveryOutcome,
  type DeliverySummary,
  type DeliveryView,
} from '../../../src/schemas/delivery-log.ts';
import { api, query } from '../api.ts';
import { useLoad } from '../hooks.ts';
import { LoadMore, usePagedList } from '../paged-list.tsx';
import { useProject } from '../context.ts';
import { Select } from '../fields.tsx';
import { LoadedView, formatTime } from '../ui.tsx';
import { DownloadButtons } from '../download-buttons.tsx';

const logPageSize = 50;

const rate = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`);

function FunnelWithRates({ stats }: { stats: NotificationView['stats'] }) {
  const rows: Array<[string, number, string]> = [
    ['Targeted', stats.targeted, ''],
    ['Sent', stats.sent, `${rate(stats.sent, stats.targeted)} of targeted`],
    ['Clicked', stats.clicked, `${rate(stats.clicked, stats.sent)} of sent (click-through rate)`],
    ['Failed', stats.failed, `${rate(stats.failed, stats.targeted)} of targeted`],
    ['Unsubscribed', stats.unsubscribed, `${rate(stats.unsubscribed, stats.targeted)} of targeted`],
  ];
  return (
    <table class="list" data-testid="funnel">
      <caption>Funnel</caption>
      <tbody>
        {rows.map(([name, value, share]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
            <td>{share}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Breakdown({ summary }: { summary: DeliverySummary }) {
  return (
    <>
      <table class="list">
        <caption>By platform</caption>
        <thead>
          <tr>
            <th scope="col">Platform</th>
            {deliveryOutcomes.map((outcome) => (
              <th scope="col" key={outcome}>
                {outcome}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.byPlatform.map((row) => (
            <tr key={row.platform}>
              <th scope="row">{row.platform}</th>
              {deliveryOutcomes.map((outcome) => (
                <td key={outcome}>{row[outcome]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <table class="list" data-testid="failure-reasons">
        <caption>Failure reasons</caption>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Reason</th>
            <th scope="col">Devices</th>
          </tr>
        </thead>
        <tbody>
          {summary.reasons.map((reason) => (
            <tr key={`${reason.outcome}${reason.reason}`}>
              <td>{reason.outcome}</td>
              <td>{reason.reason}</td>
              <td>{reason.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

type OutcomeFilter = DeliveryOutcome | 'all';

function DeliveryLog({ path }: { path: string }) {
  const [outcome, setOutcome] = useState<OutcomeFilter>('all');
  const filter = outcome === 'all' ? undefined : outcome;
  const list = usePagedList(
    (after, limit) => api<DeliveryView[]>('GET', `${path}${query({ outcome: filter, limit, after })}`),
    (row) => row.deviceId,
    logPageSize,
    [path, filter],
  );
  const { first, rows } = list;
  const options: Array<[OutcomeFilter, string]> = [
    ['all', 'Every outcome'],
    ...deliveryOutcomes.map((o) => [o, o] as [OutcomeFilter, string]),
  ];
  return (
    <section aria-labelledby="delivery-log-heading">
      <h2 id="delivery-log-heading">Delivery log</h2>
      <DownloadButtons
        label="Download the delivery log"
        choices={[
          { label: 'Download the delivery log (CSV)', path: `${path}?format=csv`, fileName: 'delivery-log.csv' },
        ]}
      />
      <Select label="Outcome" value={outcome} options={options} onChange={setOutcome} />
      <LoadedView loaded={first} empty="No device has an outcome here.">
        {() => (
          <table class="list" data-testid="delivery-log">
            <caption class="visually-hidden">Each device's outcome, by device id</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Platform</th>
                <th scope="col">Outcome</th>
                <th scope="col">Reason</th>
                <th scope="col">At</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.deviceId} data-outcome={row.outcome}>
                  <td>
                    <code>{row.deviceId}</code>
                  </td>
                  <td>{row.platform}</td>
                  <td>{row.outcome}</td>
                  <td>{row.reason ?? ''}</td>
                  <td>{formatTime(row.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadedView>
      <LoadMore list={list} />
    </section>
  );
}

/** One notification: its content, its funnel with rates, its outcomes by platform and reason, its delivery log. */
export function NotificationPage({ id, onBack }: { id: string; onBack(): void }) {
  const { base } = useProject();
  const path = `${base}/notifications/${encodeURIComponent(id)}`;
  const notification = useLoad(() => api<NotificationView>('GET', path), [path]);
  const summary = useLoad(() => api<DeliverySummary>('GET', `${path}/delivery-summary`), [path]);
  return (
    <article data-notification-page={id}>
      <button type="button" class="secondary" onClick={onBack}>
        Back to the notifications
      </button>
      <LoadedView loaded={notification}>
        {(view) => (
          <>
            <h2>{view.title ?? view.body}</h2>
            <dl class="facts">
              <dt>Id</dt>
              <dd>
                <code>{view.id}</code>
              </dd>
              <dt>Status</dt>
              <dd>{view.status}</dd>
              <dt>Created</dt>
              <dd>{formatTime(view.createdAt)}</dd>
              <dt>Title</dt>
              <dd>{view.title ?? '—'}</dd>
              <dt>Body</dt>
              <dd>{view.body}</dd>
              <dt>URL</dt>
              <dd>{view.url ?? '—'}</dd>
              <dt>Image</dt>
              <dd>{view.imageUrl ?? '—'}</dd>
            </dl>
            <FunnelWithRates stats={view.stats} />
          </>
        )}
      </LoadedView>
      <LoadedView loaded={summary}>{(data) => <Breakdown summary={data} />}</LoadedView>
      <DeliveryLog path={`${path}/deliveries`} />
    </article>
  );
}
