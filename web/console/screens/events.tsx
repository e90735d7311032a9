import { useEffect, useState } from 'preact/hooks';
import type { EventTypeView, EventView } from '../../../src/schemas/events.ts';
import { api, query } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatDay, formatTime } from '../ui.tsx';
import { type Column, DataTable } from '../layout.tsx';
import { href } from '../route.ts';
import { EventData } from './event-data.tsx';
import { EventTypeSuggestions } from '../pickers.tsx';
import { Field } from '../fields.tsx';

const emptyFilters = { userId: '', deviceId: '', type: '' };

const eventColumns: Column<EventView>[] = [
  { label: 'Received', cell: (event) => formatTime(event.receivedAt) },
  { label: 'Type', cell: (event) => <code class="name">{event.type}</code> },
  {
    label: 'Subject',
    cell: (event) => (
      <>
        {event.subjectType}{' '}
        <a
          class="id"
          href={
            event.subjectType === 'user' ? href('devices', 'user', event.subjectId) : href('devices', event.subjectId)
          }
        >
          {event.subjectId}
        </a>
      </>
    ),
  },
  { label: 'Data', kind: 'message', cell: (event) => <EventData data={event.data} /> },
];

const catalogColumns: Column<EventTypeView>[] = [
  { label: 'Type', cell: (type) => <code class="name">{type.type}</code> },
  { label: 'Events in 30 days', kind: 'number', cell: (type) => type.last30Days.toLocaleString() },
  { label: 'Last seen', cell: (type) => formatDay(type.lastSeenOn) },
  { label: 'Added', cell: (type) => (type.source === 'manual' ? 'By hand' : 'From events') },
];
const pageSize = 50;

export function EventsScreen() {
  const { base } = useProject();
  const [filters, setFilters] = useState(emptyFilters);
  const [applied, setApplied] = useState(emptyFilters);
  const events = useLoad(
    () => api<EventView[]>('GET', `${base}/events${query({ ...applied, limit: pageSize })}`),
    [base, applied],
  );
  // The pages read past the first, since the first was last read.
  const [older, setOlder] = useState<EventView[][]>([]);
  useEffect(() => setOlder([]), [events.data]);
  const loadOlder = useAction(async (before: string) => {
    const page = await api<EventView[]>('GET', `${base}/events${query({ ...applied, limit: pageSize, before })}`);
    setOlder((pages) => [...pages, page]);
  });
  const catalog = useLoad(() => api<EventTypeView[]>('GET', `${base}/event-types`), [base]);
  const [newType, setNewType] = useState('');
  const add = useAction(async () => {
    const added = await api<EventTypeView>('POST', `${base}/event-types`, { body: { type: newType } });
    setNewType('');
    catalog.reload();
    return added;
  });

  return (
    <div class="columns">
      <section aria-labelledby="recent-events">
        <h2 id="recent-events">Recent events</h2>
        <search aria-label="Filter recent events">
          <form
            class="filters"
            onSubmit={(event) => {
              event.preventDefault();
              // Read again even when the filters are the ones applied: new events, and new types in the catalog.
              // Trimmed as the devices and send screens trim theirs: an id is often pasted with a space after it.
              setApplied({
                userId: filters.userId.trim(),
                deviceId: filters.deviceId.trim(),
                type: filters.type.trim(),
              });
              events.reload();
              catalog.reload();
            }}
          >
            <Field
              label="User id"
              name="events-user"
              value={filters.userId}
              onInput={(userId) => setFilters({ ...filters, userId })}
            />
            <Field
              label="Device id"
              name="events-device"
              value={filters.deviceId}
              onInput={(deviceId) => setFilters({ ...filters, deviceId })}
            />
            <Field
              label="Event type"
              name="events-type"
              value={filters.type}
              onInput={(type) => setFilters({ ...filters, type })}
              list="filter-event-types"
            />
            <EventTypeSuggestions id="filter-event-types" />
            <button type="submit">Filter</button>
          </form>
        </search>
        <LoadedView loaded={events} empty="No event matches.">
          {(first) => {
            const list = [...first, ...older.flat()];
            const lastPage = older.at(-1) ?? first;
            return (
              <>
                <DataTable
                  caption="Recent events"
                  testId="events-table"
                  columns={eventColumns}
                  rows={list}
                  rowKey={(event) => event.id}
                />
                <ErrorMessage error={loadOlder.error} />
                {lastPage.length === pageSize && (
                  <button
                    type="button"
                    class="secondary"
                    disabled={loadOlder.running}
                    onClick={() => loadOlder.run(list.at(-1)!.id)}
                  >
                    Older events
                  </button>
                )}
              </>
            );
          }}
        </LoadedView>
      </section>
      <section aria-labelledby="event-catalog">
        <h2 id="event-catalog">Event catalog</h2>
        <LoadedView loaded={catalog} empty="No event type yet.">
          {(types) => (
            <DataTable
              caption="Event catalog"
              testId="event-catalog"
              columns={catalogColumns}
              rows={types}
              rowKey={(type) => type.type}
            />
          )}
        </LoadedView>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void add.run();
          }}
        >
          <Field
            label="New event type"
            name="new-event-type"
            required
            value={newType}
            onInput={setNewType}
            hint="Usable in segments and journeys at once."
          />
          <button type="submit" disabled={add.running}>
            Add event type
          </button>
          <ErrorMessage error={add.error} />
        </form>
      </section>
    </div>
  );
}
