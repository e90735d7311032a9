import { Field, Select } from '../../fields.tsx';
import { browserTimeZone } from './confirmation.ts';

export type Timing = 'now' | 'later';

/** Now, or at a time of the browser's zone. */
export function TimingFields({
  timing,
  setTiming,
  sendAtLocal,
  setSendAtLocal,
}: {
  timing: Timing;
  setTiming(timing: Timing): void;
  sendAtLocal: string;
  setSendAtLocal(local: string): void;
}) {
  return (
    <>
      <Select
        label="When"
        name="timing"
        value={timing}
        options={
          [
            ['now', 'Now'],
            ['later', 'At a time'],
          ] as const
        }
        onChange={setTiming}
      />
      {timing === 'later' && (
        <Field
          label="Send at"
          name="send-at"
          type="datetime-local"
          required
          value={sendAtLocal}
          onInput={setSendAtLocal}
          hint={`In this browser's time zone, ${browserTimeZone}; at most 365 days ahead. Until then it can be canceled on the Notifications screen.`}
        />
      )}
    </>
  );
}
