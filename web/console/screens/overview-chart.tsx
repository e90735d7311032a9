export interface ChartPoint {
  label: string;
  value: number;
}

/** The smallest of 1, 2 and 5 times a power of ten at or above the value: an axis that reads as round numbers. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A column chart of one series as HTML, so that its labels keep the page's type size at any width: an axis from 0 to
 * a round maximum, the first, middle and last days under it. The columns are a picture only; the table behind them
 * holds the same numbers for screen readers.
 */
export function ColumnChart({
  title,
  points,
  format = (value: number) => value.toLocaleString(),
}: {
  title: string;
  points: ChartPoint[];
  format?: (value: number) => string;
}) {
  const top = niceMax(Math.max(0, ...points.map((point) => point.value)));
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const ticks = [points[0], points[Math.floor(points.length / 2)], points.at(-1)];
  return (
    <figure class="chart" aria-labelledby={`${id}-title`} data-chart={title}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div class="chart-plot" aria-hidden="true">
        <div class="chart-y">
          <span>{format(top)}</span>
          <span>{format(top / 2)}</span>
          <span>{format(0)}</span>
        </div>
        <div class="chart-columns">
          {points.map((point) => (
            <span
              key={point.label}
              class="chart-column"
              title={`${shortDay(point.label)}: ${format(point.value)}`}
              style={{ height: `${(100 * point.value) / top}%` }}
            />
          ))}
        </div>
        <div class="chart-x">
          {ticks.map((tick, index) => (
            <span key={index}>{tick ? shortDay(tick.label) : ''}</span>
          ))}
        </div>
      </div>
      <details>
        <summary>Table of {title.toLowerCase()}</summary>
        <table class="list">
          <caption class="visually-hidden">{title} by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.label}>
                <th scope="row">{point.label}</th>
                <td>{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
