import type { SegmentView } from '../../../../src/schemas/segment.ts';
import type { Loaded } from '../../hooks.ts';
import { Field, NamedItemSelect, Select } from '../../fields.tsx';
import { segmentEventTypes } from '../segments/condition-editor.tsx';
import { DurationField } from './duration-field.tsx';
import type { JourneyDraft } from './journey-draft.ts';
import { ExitRules } from './exit-rules.tsx';
import { DataConditions } from '../data-conditions.tsx';
import type { PlacedErrors } from './journey-errors.ts';
import { errorOn } from './editor-props.ts';

/** Who enters the journey, how often, and what takes a traveller out of it. */
export function JourneySettings({
  draft,
  set,
  segments,
  errors,
}: {
  draft: JourneyDraft;
  set(changes: Partial<JourneyDraft>): void;
  segments: Loaded<SegmentView[]>;
  errors: PlacedErrors;
}) {
  return (
    <fieldset class="journey-settings">
      <legend>Journey</legend>
      <Field
        label="Name"
        name="journey-name"
        required
        value={draft.name}
        onInput={(name) => set({ name })}
        error={errors.fields.name}
      />
      <Select
        label="State"
        name="journey-status"
        value={draft.status}
        options={
          [
            ['draft', 'Draft: nobody enters'],
            ['active', 'Active: events enter travellers'],
            ['paused', 'Paused: nobody enters, travellers hold'],
          ] as const
        }
        onChange={(status) => set({ status })}
      />
      <Field
        label="Enters on the event"
        name="journey-entry-event"
        list={segmentEventTypes}
        required
        value={draft.entryEvent}
        onInput={(entryEvent) => set({ entryEvent })}
        error={errorOn(errors.entry, 'event') ?? errorOn(errors.entry, '')}
        hint="The event's device or user travels; {{ entry_event.data.x }} in a push reads its data."
      />
      <div class="entry-where">
        <DataConditions
          where={draft.entryWhere}
          onChange={(entryWhere) => set({ entryWhere })}
          name={(field) => `journey-entry-${field}`}
          legend={(at) => `Entry data condition ${at + 1}`}
          addLabel="Enter only on events whose data meets a condition"
          errors={errors.entry.filter((error) => error.field === 'where')}
        />
      </div>
      <NamedItemSelect
        items={segments}
        loading="Loading segments"
        empty="Everyone can enter: no segment yet to narrow it."
        label="Only devices in the segment"
        name="journey-audience"
        placeholder="Everyone"
        value={draft.segmentId}
        onChange={(segmentId) => set({ segmentId })}
      />
      {errors.fields.audience && <p class="field-error">{errors.fields.audience}</p>}
      <Select
        label="Enter again"
        name="journey-reentry"
        value={draft.reentry}
        options={
          [
            ['afterExit', 'Once it has left'],
            ['never', 'Never: once only'],
            ['afterSeconds', 'Not sooner than a time after entering'],
          ] as const
        }
        onChange={(reentry) => set({ reentry })}
      />
      {draft.reentry === 'afterSeconds' && (
        <DurationField
          label="Enter again after"
          name="journey-reentry-after"
          value={draft.reentryAfter}
          onChange={(reentryAfter) => set({ reentryAfter })}
          error={errors.fields.reentry}
          hint="From 10 minutes to 365 days after the last entry."
        />
      )}
      <ExitRules rules={draft.exit} onChange={(exit) => set({ exit })} errors={errors.exit} />
    </fieldset>
  );
}
