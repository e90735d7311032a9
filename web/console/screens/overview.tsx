import { useState } from 'preact/hooks';
import type { OverviewDay, OverviewView } from '../../../src/schemas/overview.ts';
import { api, query } from '../api.ts';
import { useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { LoadedView } from '../ui.tsx';
import { ColumnChart } from './overview-chart.tsx';
import { FirstSteps } from './first-steps.tsx';

const periods = [7, 30, 90] as const;
type Period = (typeof periods)[number];

const percent = (value: number) => `${value.toFixed(value === 0 || value >= 10 ? 0 : 1)}%`;
const sum = (days: OverviewDay[], field: 'sent' | 'clicked' | 'conversions') =>
  days.reduce((total, day) => total + day[field], 0);

/** Conversions are shown once the period has any (CONTRACTS §19): a project without conversion events has none. */
const countsConversions = (days: OverviewDay[]) => days.some((day) => day.conversions > 0);

function Headlines({ days, period }: { days: OverviewDay[]; period: Period }) {
  const now = days.at(-1)?.subscribed ?? 0;
  const change = now - (days[0]?.subscribed ?? 0);
  const sent = sum(days, 'sent');
  const clicked = sum(days, 'clicked');
  const figures: Array<[string, string, string]> = [
    ['Subscribed now', now.toLocaleString(), `${change >= 0 ? '+' : ''}${change.toLocaleString()} in ${period} days`],
    ['Pushes sent', sent.toLocaleString(), `in ${period} days`],
    ['Clicks', clicked.toLocaleString(), `in ${period} days`],
    ['Click-through rate', sent === 0 ? '—' : percent((100 * clicked) / sent), 'clicks per push sent'],
  ];
  if (countsConversions(days))
    figures.push(['Conversions', sum(days, 'conversions').toLocaleString(), `in ${period} days`]);
  return (
    <dl class="headlines" data-testid="headlines">
      {figures.map(([name, value, note]) => (
        <div key={name} data-figure={name}>
          <dt>{name}</dt>
          <dd>
            <strong>{value}</strong> <small class="muted">{note}</small>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The project at a glance over 7, 30 or 90 days: the screen that opens after sign-in; first steps for a new one. */
export function OverviewScreen() {
  const { base } = useProject();
  const [period, setPeriod] = useState<Period>(30);
  const loaded = useLoad(() => api<OverviewView>('GET', `${base}/overview${query({ days: period })}`), [base, period]);
  return (
    <>
      <fieldset class="period">
        <legend>Period</legend>
        {periods.map((days) => (
          <label key={days} class="checkbox-row">
            <input type="radio" name="period" checked={period === days} onChange={() => setPeriod(days)} />
            <span>{days} days</span>
          </label>
        ))}
      </fieldset>
      <LoadedView loaded={loaded}>
        {({ days }) =>
          days.every((day) => day.subscribed === 0 && day.sent === 0) ? (
            <FirstSteps />
          ) : (
            <>
              <Headlines days={days} period={period} />
              <div class="charts">
                <ColumnChart
                  title="Subscribed devices"
                  points={days.map((day) => ({ label: day.day, value: day.subscribed }))}
                />
                <ColumnChart title="Pushes sent" points={days.map((day) => ({ label: day.day, value: day.sent }))} />
                <ColumnChart title="Clicks" points={days.map((day) => ({ label: day.day, value: day.clicked }))} />
                {countsConversions(days) && (
                  <ColumnChart
                    title="Conversions"
                    points={days.map((day) => ({ label: day.day, value: day.conversions }))}
                  />
                )}
                <ColumnChart
                  title="Click-through rate"
                  format={percent}
                  points={days.map((day) => ({
                    label: day.day,
                    value: day.sent === 0 ? 0 : (100 * day.clicked) / day.sent,
                  }))}
                />
              </div>
            </>
          )
        }
      </LoadedView>
    </>
  );
}
