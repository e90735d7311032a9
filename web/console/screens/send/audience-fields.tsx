import type { SegmentView } from '../../../../src/schemas/segment.ts';
import type { Loaded } from '../../hooks.ts';
import { Field, NamedItemSelect, Select } from '../../fields.tsx';
import { type TargetType, targetTypes } from './audience.ts';
import { failureText } from './confirmation.ts';

/** Who the send goes to, and how many subscribed devices that is now. */
export function AudienceFields({
  segments,
  targetType,
  setTargetType,
  target,
  setTarget,
  count,
  error,
}: {
  segments: Loaded<SegmentView[]>;
  targetType: TargetType;
  setTargetType(type: TargetType): void;
  target: string;
  setTarget(target: string): void;
  count: Loaded<number>;
  /** What the API refused in the audience, in words. */
  error?: string;
}) {
  return (
    <fieldset>
      <legend>Audience</legend>
      <Select
        label="Send to"
        name="target-type"
        value={targetType}
        options={targetTypes}
        onChange={(type) => {
          setTargetType(type);
          setTarget('');
        }}
      />
      {targetType === 'segment' ? (
        <NamedItemSelect
          items={segments}
          loading="Loading segments"
          empty="No segment yet: build one on the Segments screen."
          label="Segment"
          name="send-segment"
          placeholder="Choose a segment"
          value={target.trim()}
          error={error}
          onChange={setTarget}
        />
      ) : (
        <Field
          label={targetType === 'userId' ? 'User id' : 'Device id'}
          name="send-target"
          value={target}
          onInput={setTarget}
          error={error}
          required
        />
      )}
      <p class="count" aria-live="polite" data-testid="audience-count">
        {target.trim() === ''
          ? 'Choose an audience.'
          : count.error
            ? `Cannot count: ${failureText(count.error)}`
            : count.loading || count.data === undefined
              ? 'Counting…'
              : `${count.data} subscribed device${count.data === 1 ? '' : 's'}`}
      </p>
    </fieldset>
  );
}
