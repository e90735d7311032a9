import { segmentEventTypes } from '../segments/condition-editor.tsx';
import { DataConditions } from '../data-conditions.tsx';
import { Field, Select } from '../../fields.tsx';
import { DurationField } from './duration-field.tsx';
import { type EditorProps, errorOn } from './editor-props.ts';
import { TargetSelect } from './target-select.tsx';

export function WaitEditor({ step, onChange, errors }: EditorProps<'wait'>) {
  return (
    <>
      <Select
        label="Wait"
        name="step-wait-mode"
        value={step.mode}
        options={
          [
            ['delay', 'For a time'],
            ['localTime', "Until a time of day in the traveller's zone"],
          ] as const
        }
        onChange={(mode) => onChange({ ...step, mode })}
      />
      {step.mode === 'delay' ? (
        <DurationField
          label="Wait for"
          name="step-wait-for"
          value={step.delay}
          onChange={(delay) => onChange({ ...step, delay })}
          error={errorOn(errors, 'seconds')}
          hint="From 1 second to 365 days."
        />
      ) : (
        <Field
          label="Wait until"
          name="step-wait-until"
          type="time"
          value={step.time}
          onInput={(time) => onChange({ ...step, time })}
          error={errorOn(errors, 'untilLocalTime')}
          hint="The next such time on the device's clock (the project's default zone for devices without one)."
        />
      )}
    </>
  );
}

export function WaitForEventEditor({ step, index, steps, onChange, errors }: EditorProps<'waitForEvent'>) {
  return (
    <>
      <Field
        label="Event"
        name="step-event"
        list={segmentEventTypes}
        required
        value={step.event}
        onInput={(event) => onChange({ ...step, event })}
        error={errorOn(errors, 'event')}
        hint="Only an event that comes after the traveller reaches this step counts."
      />
      <DataConditions
        where={step.where}
        onChange={(where) => onChange({ ...step, where })}
        name={(field) => `step-${field}`}
        legend={(at) => `Event data condition ${at + 1}`}
        addLabel="Count only events whose data meets a condition"
        errors={errors.filter((error) => error.field === 'where')}
      />
      <DurationField
        label="Wait at most"
        name="step-timeout"
        value={step.timeout}
        onChange={(timeout) => onChange({ ...step, timeout })}
        error={errorOn(errors, 'timeoutSeconds')}
        hint="Up to 30 days."
      />
      <Field
        label="Same values as the entry event (data fields, comma-separated)"
        name="step-same-as"
        value={step.sameAs}
        onInput={(sameAs) => onChange({ ...step, sameAs })}
        error={errorOn(errors, 'sameAs')}
        hint="For instance orderId: only the event about the same order counts."
      />
      <div class="sides-fields">
        <TargetSelect
          label="If the event happens, go to"
          value={step.onEvent}
          steps={steps}
          own={index}
          onChange={(onEvent) => onChange({ ...step, onEvent })}
          error={errorOn(errors, 'onEvent')}
        />
        <TargetSelect
          label="If it does not happen, go to"
          value={step.onTimeout}
          steps={steps}
          own={index}
          onChange={(onTimeout) => onChange({ ...step, onTimeout })}
          error={errorOn(errors, 'onTimeout')}
        />
      </div>
    </>
  );
}
