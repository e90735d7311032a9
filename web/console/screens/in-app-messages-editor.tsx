import type { SegmentView } from '../../../src/schemas/segment.ts';
import type { Loaded } from '../hooks.ts';
import { Field, NamedItemSelect, Select } from '../fields.tsx';
import { EventTypeSuggestions } from '../pickers.tsx';
import type { ButtonDraft, InAppDraft } from './in-app-messages-draft.ts';
import { ButtonFields } from './in-app-button-fields.tsx';

const maxButtons = 2;

interface EditorProps {
  draft: InAppDraft;
  onChange(draft: InAppDraft): void;
  segments: Loaded<SegmentView[]>;
  /** By the API's path of each field, e.g. /buttons/0/url. */
  errors: Partial<Record<string, string>>;
}

/** Layout, content, buttons, trigger, segment, schedule and frequency of an in-app message (CONTRACTS §16). */
export function InAppEditor({ draft, onChange, segments, errors }: EditorProps) {
  const set = (fields: Partial<InAppDraft>) => onChange({ ...draft, ...fields });
  const setButton = (index: number, button: ButtonDraft) =>
    set({ buttons: draft.buttons.map((other, at) => (at === index ? button : other)) });
  return (
    <>
      <Field
        label="Name"
        name="iam-name"
        required
        value={draft.name}
        error={errors['/name']}
        onInput={(name) => set({ name })}
      />
      <Select
        label="Status"
        name="iam-status"
        value={draft.status}
        options={[
          ['active', 'Active'],
          ['paused', 'Paused'],
        ]}
        onChange={(status) => set({ status })}
      />
      <Select
        label="Layout"
        name="iam-layout"
        value={draft.layout}
        options={[
          ['modal', 'Modal'],
          ['banner', 'Banner'],
        ]}
        onChange={(layout) => set({ layout })}
      />
      <Field
        label="Title"
        name="iam-title"
        value={draft.title}
        error={errors['/title']}
        hint="Liquid: {{ device.tags.name }}"
        onInput={(title) => set({ title })}
      />
      <Field
        label="Body"
        name="iam-body"
        multiline
        required
        value={draft.body}
        error={errors['/body']}
        onInput={(body) => set({ body })}
      />
      <Field
        label="Image URL"
        name="iam-image"
        value={draft.imageUrl}
        error={errors['/imageUrl']}
        onInput={(imageUrl) => set({ imageUrl })}
      />
      {draft.buttons.map((button, index) => (
        <ButtonFields
          key={index}
          index={index}
          button={button}
          errors={errors}
          onChange={(next) => setButton(index, next)}
          onRemove={() => set({ buttons: draft.buttons.filter((_, at) => at !== index) })}
        />
      ))}
      {draft.buttons.length < maxButtons && (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            set({
              buttons: [
                ...draft.buttons,
                { id: `button-${draft.buttons.length + 1}`, text: '', action: 'close', url: '' },
              ],
            })
          }
        >
          Add a button
        </button>
      )}
      <Select
        label="Shown when"
        name="iam-trigger"
        value={draft.triggerKind}
        options={[
          ['event', 'An event is tracked'],
          ['session_start', 'A session starts'],
        ]}
        onChange={(triggerKind) => set({ triggerKind })}
      />
      <EventTypeSuggestions id="iam-event-types" />
      {draft.triggerKind === 'event' && (
        <Field
          label="Event type"
          name="iam-trigger-event"
          required
          value={draft.triggerEvent}
          error={errors['/trigger/event'] ?? errors['/trigger']}
          onInput={(triggerEvent) => set({ triggerEvent })}
          list="iam-event-types"
          hint="Suggested from the event types this project has seen."
        />
      )}
      <NamedItemSelect
        label="Segment"
        name="iam-segment"
        value={draft.segmentId}
        items={segments}
        loading="Loading segments"
        empty="No segment yet: the message goes to every device."
        placeholder="Every device"
        onChange={(segmentId) => set({ segmentId })}
      />
      <Field
        label="Starts at"
        name="iam-start"
        type="datetime-local"
        value={draft.startAt}
        error={errors['/startAt']}
        onInput={(startAt) => set({ startAt })}
      />
      <Field
        label="Ends at"
        name="iam-end"
        type="datetime-local"
        value={draft.endAt}
        error={errors['/endAt']}
        onInput={(endAt) => set({ endAt })}
      />
      <Select
        label="Frequency"
        name="iam-frequency"
        value={draft.frequency}
        options={[
          ['once', 'Once per device'],
          ['everyDays', 'At most every N days'],
          ['always', 'Each time the trigger fires'],
        ]}
        onChange={(frequency) => set({ frequency })}
      />
      {draft.frequency === 'everyDays' && (
        <Field
          label="Days between showings"
          name="iam-every-days"
          type="number"
          value={draft.everyDays}
          error={errors['/frequency']}
          onInput={(everyDays) => set({ everyDays })}
        />
      )}
      <Field
        label="Priority"
        name="iam-priority"
        type="number"
        value={draft.priority}
        error={errors['/priority']}
        hint="The highest is shown first when several share a trigger."
        onInput={(priority) => set({ priority })}
      />
    </>
  );
}
