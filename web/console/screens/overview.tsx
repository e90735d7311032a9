import type { OverviewView } from '../../../src/schemas/overview.ts';
import { api } from '../api.ts';
import { useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { LoadedView } from '../ui.tsx';
import { ColumnChart } from './overview-chart.tsx';

const percent = (value: number) => `${value.toFixed(1)}%`;

/** The project's last 30 days at a glance: the screen that opens after sign-in. */
export function OverviewScreen() {
  const { base } = useProject();
  const loaded = useLoad(() => api<OverviewView>('GET', `${base}/overview`), [base]);
  return (
    <LoadedView loaded={loaded}>
      {({ days }) => (
        <div class="charts">
          <ColumnChart
            title="Subscribed devices"
            points={days.map((day) => ({ label: day.day, value: day.subscribed }))}
          />
          <ColumnChart title="Pushes sent" points={days.map((day) => ({ label: day.day, value: day.sent }))} />
          <ColumnChart title="Pushes clicked" points={days.map((day) => ({ label: day.day, value: day.clicked }))} />
          <ColumnChart
            title="Click-through rate"
            format={percent}
            points={days.map((day) => ({ label: day.day, value: day.sent === 0 ? 0 : (100 * day.clicked) / day.sent }))}
          />
        </div>
      )}
    </LoadedView>
  );
}
