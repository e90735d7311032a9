import { useState } from 'preact/hooks';
import type { ProjectView } from '../../../src/schemas/project.ts';
import type { Attribution, ConversionSettings } from '../../../src/schemas/conversions.ts';
import { api } from '../api.ts';
import { useAction } from '../hooks.ts';
import { Field, FormError, Select } from '../fields.tsx';
import { EventTypeSuggestions } from '../pickers.tsx';
import { placeErrors, type FieldRule } from '../field-errors.ts';

/** CONTRACTS §19: a project counts at most five conversion events. */
const maxConversions = 5;

interface ConversionDraft {
  event: string;
  windowHours: string;
  attribution: Attribution;
  valueField: string;
}

const blankConversion: ConversionDraft = { event: '', windowHours: '24', attribution: 'send', valueField: '' };

const attributionChoices = [
  ['send', 'The last push sent to them'],
  ['click', 'The last push they clicked'],
] as const;

const draftOf = (project: ProjectView): ConversionDraft[] =>
  project.conversions.map(({ event, windowHours, attribution, valueField }) => ({
    event,
    windowHours: String(windowHours),
    attribution,
    valueField: valueField ?? '',
  }));

/** Each row as typed: a window that is no number goes as one the API refuses on its field, never as a default. */
const bodyOf = (drafts: ConversionDraft[]): ConversionSettings =>
  drafts.map(({ event, windowHours, attribution, valueField }) => ({
    event: event.trim(),
    windowHours: windowHours.trim() === '' ? Number.NaN : Number(windowHours),
    attribution,
    ...(valueField.trim() !== '' && { valueField: valueField.trim() }),
  }));

type RowField = `${number}-${'event' | 'windowHours' | 'valueField'}`;

const rowRules = (index: number): FieldRule<RowField>[] => [
  {
    path: `/conversions/${index}/event`,
    field: `${index}-event`,
    sentence: 'Name an event type (pick one from the list or type it), each only once.',
  },
  {
    path: `/conversions/${index}/windowHours`,
    field: `${index}-windowHours`,
    sentence: 'Give a whole number of hours from 1 to 720.',
  },
  {
    path: `/conversions/${index}/valueField`,
    field: `${index}-valueField`,
    sentence: "Name a field of the event's data (no dot, not starting with $), or leave it blank.",
  },
];

/** Which events count as a push's conversions (CONTRACTS §19), each with its window, attribution and value field. */
export function ProjectConversionsForm({
  base,
  project,
  onSaved,
}: {
  base: string;
  project: ProjectView;
  onSaved(): void;
}) {
  const [drafts, setDrafts] = useState(() => draftOf(project));
  const setRow = (index: number, changes: Partial<ConversionDraft>) =>
    setDrafts(drafts.map((row, at) => (at === index ? { ...row, ...changes } : row)));
  const save = useAction(async () => {
    const saved = await api<ProjectView>('PATCH', `${base}/settings`, { body: { conversions: bodyOf(drafts) } });
    onSaved();
    return saved;
  });
  const { fields, unplaced } = placeErrors(
    save.error,
    drafts.flatMap((_, index) => rowRules(index)),
  );
  return (
    <section aria-labelledby="conversions-heading">
      <h2 id="conversions-heading">Conversions</h2>
      <p>
        Events that count as a push paying off, such as a purchase: each is credited to the last push its device or user
        got (or clicked) within the window before it, once per push and person.
      </p>
      <EventTypeSuggestions id="conversion-event-types" />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        {drafts.length === 0 && <p class="empty">No conversion yet: pushes are measured by their clicks only.</p>}
        {drafts.map((row, index) => (
          <fieldset key={index} data-conversion={index}>
            <legend>Conversion {index + 1}</legend>
            <Field
              label="Event"
              name={`conversion-${index}-event`}
              list="conversion-event-types"
              value={row.event}
              onInput={(event) => setRow(index, { event })}
              error={fields[`${index}-event`]}
            />
            <Field
              label="Counts within (hours)"
              name={`conversion-${index}-window`}
              type="number"
              value={row.windowHours}
              onInput={(windowHours) => setRow(index, { windowHours })}
              hint="1 to 720 hours after the push"
              error={fields[`${index}-windowHours`]}
            />
            <Select
              label="Credited to"
              name={`conversion-${index}-attribution`}
              value={row.attribution}
              options={attributionChoices}
              onChange={(attribution) => setRow(index, { attribution })}
            />
            <Field
              label="Value field (optional)"
              name={`conversion-${index}-value`}
              value={row.valueField}
              onInput={(valueField) => setRow(index, { valueField })}
              hint="A number in the event's data, such as amount: its sum is shown beside the count."
              error={fields[`${index}-valueField`]}
            />
            <button type="button" class="secondary" onClick={() => setDrafts(drafts.filter((_, at) => at !== index))}>
              Remove conversion {index + 1}
            </button>
          </fieldset>
        ))}
        <div class="actions">
          {drafts.length < maxConversions && (
            <button type="button" class="secondary" onClick={() => setDrafts([...drafts, blankConversion])}>
              Add a conversion
            </button>
          )}
          <button type="submit" disabled={save.running}>
            Save conversions
          </button>
        </div>
      </form>
      <FormError error={save.error} unplaced={unplaced} what="conversions" />
      {save.result && !save.running && <p role="status">Conversions saved.</p>}
    </section>
  );
}
