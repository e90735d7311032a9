import type { JourneyStats } from '../../../../src/schemas/journey.ts';

const totals = [
  ['entered', 'Entered'],
  ['active', 'Travelling now'],
  ['completed', 'Reached the end'],
  ['exited', 'Left by an exit rule'],
] as const;

/** The journey's own counts, above its steps' (CONTRACTS §18), read again while the page is open. */
export function JourneyCounts({ stats }: { stats: JourneyStats }) {
  return (
    <dl class="step-counts journey-counts" data-testid="journey-counts" aria-live="polite">
      {totals.map(([field, words]) => (
        <div key={field} data-count={field}>
          <dt>{words}</dt>
          <dd>{stats[field]}</dd>
        </div>
      ))}
    </dl>
  );
}
