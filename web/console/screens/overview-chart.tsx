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

/** A count's axis maximum: round, with a whole middle too (2 rather than 1, 6 rather than 5), as no one sends half a push. */
export function countMax(value: number): number {
  const top = niceMax(value);
  return Number.isInteger(top / 2) ? top : top + 1;
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
  format,
}: {
  title: string;
  points: ChartPoint[];
  /** How a value reads (a rate's percentage); without it the values are counts. */
  format?: (value: number) => string;
}) {
  const highest = Math.max(0, ...points.map((point) => point.value));
  const top = format === undefined ? countMax(highest) : niceMax(highest);
  const label = format ?? ((value: number) => value.toLocaleString());
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const ticks = [points[0], points[Math.floor(points.length / 2)], points.at(-1)];
  return (
    <figure class="chart" aria-labelledby={`${id}-title`} data-chart={title}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div class="chart-plot" aria-hidden="true">
        <div class="chart-y">
          <span>{label(top)}</span>
          <span>{label(top / 2)}</span>
          <span>{label(0)}</span>
        </div>
        <div class="chart-columns">
          {points.map((point) => (
            <span
              key={point.label}
              class="chart-column"
              title={`${shortDay(point.label)}: ${label(point.value)}`}
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
                <td>{label(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
