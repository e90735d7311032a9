export interface ChartPoint {
  label: string;
  value: number;
}

const width = 600;
const height = 160;
const pad = 24;

/**
 * A column chart of one series, drawn as SVG by hand: 30 columns and an axis need no library, and the page stays free
 * of one. The SVG is a picture only (aria-hidden); the table after it holds the same numbers for screen readers.
 */
export function ColumnChart({
  title,
  points,
  format = String,
}: {
  title: string;
  points: ChartPoint[];
  format?: (value: number) => string;
}) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const step = (width - pad) / Math.max(points.length, 1);
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <figure class="chart" aria-labelledby={`${id}-title`} data-chart={title}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="presentation" aria-hidden="true" class="chart-svg">
        <line x1={pad} y1={height - pad} x2={width} y2={height - pad} class="chart-axis" />
        <text x={0} y={12} class="chart-label">
          {format(max)}
        </text>
        {points.map((point, index) => {
          const barHeight = ((height - 2 * pad) * point.value) / max;
          return (
            <rect
              key={point.label}
              x={pad + index * step + 1}
              y={height - pad - barHeight}
              width={Math.max(step - 2, 1)}
              height={barHeight}
              class="chart-bar"
            />
          );
        })}
        <text x={pad} y={height - 6} class="chart-label">
          {points[0]?.label ?? ''}
        </text>
        <text x={width} y={height - 6} text-anchor="end" class="chart-label">
          {points.at(-1)?.label ?? ''}
        </text>
      </svg>
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
