import type { EventView } from '../../../src/schemas/events.ts';
import { Tags } from '../ui.tsx';

/** An event's data as a list of its keys and values, each value as text (nested ones as JSON). */
export function EventData({ data }: { data: EventView['data'] }) {
  if (Object.keys(data).length === 0) return <span class="muted">no data</span>;
  return <Tags tags={data} />;
}
