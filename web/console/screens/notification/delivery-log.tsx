import type { DeliveryOutcome, DeliveryView } from '../../../../src/schemas/delivery-log.ts';
import { api, query } from '../../api.ts';
import { DataTable, Section } from '../../layout.tsx';
import { LoadMore, usePagedList } from '../../paged-list.tsx';
import { Select } from '../../fields.tsx';
import { href } from '../../route.ts';
import { LoadedView, formatTime } from '../../ui.tsx';
import { deliveryOutcomes, inWords, outcomeWords, platformWords, reasonInWords, waitingWords } from '../../words.ts';
import { DownloadButtons } from '../../download-buttons.tsx';

const logPageSize = 50;
export type OutcomeFilter = DeliveryOutcome | 'waiting' | 'all';

/** Each device's outcome, filtered by outcome, each device opening its profile; the whole log as CSV. */
export function DeliveryLog({
  path,
  notificationId,
  round,
  outcome,
  setOutcome,
}: {
  path: string;
  notificationId: string;
  round: number;
  outcome: OutcomeFilter;
  setOutcome(outcome: OutcomeFilter): void;
}) {
  const filter = outcome === 'all' ? undefined : outcome;
  const list = usePagedList(
    (after, limit) => api<DeliveryView[]>('GET', `${path}${query({ outcome: filter, limit, after })}`),
    (row) => row.deviceId,
    logPageSize,
    [path, filter, round],
  );
  return (
    <Section title="Delivery log">
      <div class="filters">
        <Select
          label="Outcome"
          value={outcome}
          options={[
            ['all', 'Every outcome'],
            ...deliveryOutcomes.map((o) => [o, outcomeWords[o]] as const),
            ['waiting', waitingWords.waiting],
          ]}
          onChange={setOutcome}
        />
        {outcome !== 'waiting' && (
          <DownloadButtons
            label="Download the delivery log"
            choices={[
              {
                label: 'Download the delivery log (CSV)',
                path: `${path}${query({ format: 'csv', outcome: filter })}`,
                fileName: `deliveries-${notificationId}.csv`,
              },
            ]}
          />
        )}
      </div>
      <LoadedView loaded={list.first} empty="No device has an outcome here yet.">
        {() => (
          <DataTable
            caption="Each device's outcome, by device id"
            testId="delivery-log"
            rows={list.rows}
            rowKey={(row) => row.deviceId}
            rowProps={(row) => ({ 'data-outcome': row.outcome })}
            columns={[
              {
                label: 'Device',
                kind: 'id',
                cell: (row) => <a href={href('devices', row.deviceId)}>{row.deviceId}</a>,
              },
              { label: 'Platform', cell: (row) => inWords(platformWords, row.platform) },
              { label: 'Outcome', cell: (row) => inWords({ ...outcomeWords, ...waitingWords }, row.outcome) },
              { label: 'Why', cell: (row) => reasonInWords(row.reason) },
              { label: 'At', cell: (row) => (row.outcome === 'waiting' ? 'due ' : '') + formatTime(row.at) },
            ]}
          />
        )}
      </LoadedView>
      <LoadMore list={list} />
    </Section>
  );
}
