import type { NotificationView } from '../../../../src/schemas/notification.ts';
import { api } from '../../api.ts';
import { useAction } from '../../hooks.ts';
import { DataTable, Section } from '../../layout.tsx';
import { ConfirmButton } from '../../save-controls.tsx';
import { ErrorMessage, formatTime } from '../../ui.tsx';
import { wilsonInterval } from './confidence.ts';
import { conversionEntries, worth } from './conversions.tsx';
import { rate } from './funnel-chart.tsx';

type Variant = NonNullable<NotificationView['variants']>[number];
type Experiment = NonNullable<NotificationView['experiment']>;

/** The metric's count of a variant: its clicks, or its conversions of the metric's event. */
const metricCount = (metric: string, stats: Variant['stats']) =>
  metric === 'clicked' ? stats.clicked : (stats.conversions[metric.slice('conversion:'.length)]?.count ?? 0);

const metricWords = (metric: string) =>
  metric === 'clicked' ? 'clicks' : `conversions (${metric.slice('conversion:'.length)})`;

const rateLabel = (metric: string) =>
  metric === 'clicked' ? 'Click rate' : `Rate of ${metric.slice('conversion:'.length)}`;

const percent = (share: number) => `${Number((100 * share).toFixed(1))}%`;

function RateWithConfidence({ part, whole }: { part: number; whole: number }) {
  const interval = wilsonInterval(part, whole);
  if (interval === null) return <>—</>;
  // One element: a phone's card puts each of a cell's elements in a column of its own.
  return (
    <span>
      <strong>{rate(part, whole)}</strong>{' '}
      <small class="muted">
        95% sure between {percent(interval[0])} and {percent(interval[1])}
      </small>
    </span>
  );
}

function statusText(experiment: Experiment): string {
  if (experiment.status === 'testing')
    return experiment.testPercent === 100
      ? 'Testing on the whole audience: the comparison only reports, nobody waits.'
      : `Testing on ${experiment.testPercent}% of the audience; the rest waits for the winner.`;
  return experiment.status === 'sending_winner'
    ? `Sending the winner to the ${100 - experiment.testPercent}% that waited.`
    : 'Completed.';
}

function decisionText(experiment: Experiment): string {
  if (experiment.decidedBy === undefined) return 'No winner yet.';
  const when = experiment.decidedAt === undefined ? '' : ` on ${formatTime(experiment.decidedAt)}`;
  const who = experiment.decidedBy === 'manual' ? 'picked by hand' : 'decided automatically';
  if (experiment.winner === undefined) return `No variant won (${who}${when}): the rest got nothing.`;
  return `Winner: ${experiment.winner}, ${who}${when}.`;
}

function pValueText({ pValue }: Experiment): string {
  if (pValue === undefined) return 'The p-value is worked out when the experiment is decided automatically.';
  const shown = pValue < 0.001 ? 'below 0.001' : pValue.toFixed(3);
  return pValue < 0.05
    ? `p-value ${shown} (under the 0.05 threshold): the difference between the variants is unlikely to be chance.`
    : `p-value ${shown} (0.05 or above): the difference between the variants may be chance.`;
}

/**
 * The variants of an experiment side by side (CONTRACTS §19): each one's sends, clicks, conversions and the metric's
 * rate with its 95% interval, how the experiment stands and who decided; while it tests, a winner can be picked.
 */
export function ExperimentComparison({
  path,
  variants,
  experiment,
  onPicked,
}: {
  path: string;
  variants: Variant[];
  experiment: Experiment;
  onPicked(): void;
}) {
  const pick = useAction(async (variant: string) => {
    await api<NotificationView>('POST', `${path}/winner`, { body: { variant } });
    onPicked();
  });
  const testing = experiment.status === 'testing';
  const metric = metricWords(experiment.metric);
  return (
    <Section title="Experiment" testId="experiment">
      <p data-testid="experiment-status">{statusText(experiment)}</p>
      <p data-testid="experiment-decision">
        <strong>{decisionText(experiment)}</strong> Measured by {metric} per push sent.
      </p>
      <p data-testid="experiment-p-value" class="muted">
        {pValueText(experiment)}
      </p>
      <DataTable
        caption={`The variants compared by ${metric}`}
        rows={variants}
        rowKey={(variant) => variant.name}
        rowProps={(variant) => ({ 'data-variant': variant.name })}
        columns={[
          {
            label: 'Variant',
            cell: (variant) => (
              <span>
                {variant.name}{' '}
                {variant.name === experiment.winner && <span class="status status-completed">winner</span>}
              </span>
            ),
          },
          { label: 'Sent', kind: 'number', cell: ({ stats }) => stats.sent.toLocaleString() },
          {
            label: 'Clicks',
            kind: 'number',
            cell: ({ stats }) => `${stats.clicked.toLocaleString()} (${rate(stats.clicked, stats.sent)})`,
          },
          {
            label: 'Conversions',
            cell: ({ stats }) =>
              conversionEntries(stats.conversions).length === 0 ? (
                '—'
              ) : (
                <ul class="plain">
                  {conversionEntries(stats.conversions).map(([event, counts]) => (
                    <li key={event}>
                      <code class="name">{event}</code> {counts.count.toLocaleString()}
                      {worth(counts) && ` (${worth(counts)})`}
                    </li>
                  ))}
                </ul>
              ),
          },
          {
            label: rateLabel(experiment.metric),
            cell: ({ stats }) => <RateWithConfidence part={metricCount(experiment.metric, stats)} whole={stats.sent} />,
          },
          ...(testing
            ? [
                {
                  label: 'Winner',
                  cell: (variant: Variant) => (
                    <ConfirmButton
                      label={`Pick ${variant.name}`}
                      question={`Send “${variant.name}” to everyone who waits? This cannot be changed.`}
                      disabled={pick.running}
                      onConfirm={() => void pick.run(variant.name)}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      <ErrorMessage error={pick.error} />
    </Section>
  );
}
