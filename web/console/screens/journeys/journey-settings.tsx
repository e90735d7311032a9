import type { SegmentView } from '../../../../src/schemas/segment.ts';
import type { Loaded } from '../../hooks.ts';
import { Field, NamedItemSelect, Select } from '../../fields.tsx';
import { segmentEventTypes } from '../segments/condition-editor.tsx';
import { DurationField } from './duration-field.tsx';
import type { ExitRuleDraft, JourneyDraft } from './journey-draft.ts';
import type { PlacedErrors } from './journey-errors.ts';

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
  const setRule = (at: number, changes: Partial<ExitRuleDraft>) =>
    set({ exit: draft.exit.map((rule, other) => (other === at ? { ...rule, ...changes } : rule)) });
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
        error={errors.fields.entry}
        hint="The event's device or user travels; {{ entry_event.data.x }} in a push reads its data."
      />
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
      {draft.exit.map((rule, at) => (
        <fieldset key={at}>
          <legend>Exit rule {at + 1}</legend>
          <Field
            label={`Exit rule ${at + 1}: leaves on the event`}
            name={`journey-exit-${at}-event`}
            list={segmentEventTypes}
            required
            value={rule.event}
            onInput={(event) => setRule(at, { event })}
            error={errors.exit.get(at)}
            hint="At once, wherever the traveller is, waits included."
          />
          <Field
            label={`Exit rule ${at + 1}: same values as the entry event`}
            name={`journey-exit-${at}-same-as`}
            value={rule.sameAs}
            onInput={(sameAs) => setRule(at, { sameAs })}
            hint="Data fields, comma-separated: orderId leaves only on the event about the same order."
          />
          <button
            type="button"
            class="secondary"
            onClick={() => set({ exit: draft.exit.filter((_, other) => other !== at) })}
          >
            Remove exit rule {at + 1}
          </button>
        </fieldset>
      ))}
      <div class="exit-rules">
        <button
          type="button"
          class="secondary"
          onClick={() => set({ exit: [...draft.exit, { event: '', sameAs: '' }] })}
        >
          Add an exit rule
        </button>
      </div>
    </fieldset>
  );
}
