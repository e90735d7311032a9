import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import { Checkbox, Field } from '../../fields.tsx';

/** When the send's pushes may reach each device (CONTRACTS §15), as typed. */
export interface DeliveryDraft {
  localTime: string;
  throttlePerMinute: string;
  ignoreQuietHours: boolean;
  ignoreFrequencyCap: boolean;
}

export const blankDelivery: DeliveryDraft = {
  localTime: '',
  throttlePerMinute: '',
  ignoreQuietHours: false,
  ignoreFrequencyCap: false,
};

type DeliveryBody = Pick<
  SendNotificationBody,
  'localTime' | 'throttlePerMinute' | 'ignoreQuietHours' | 'ignoreFrequencyCap'
>;

/** Only what is set goes to the API, which names a bad value. */
export function deliveryBody(draft: DeliveryDraft): DeliveryBody {
  const body: DeliveryBody = {};
  if (draft.localTime.trim() !== '') body.localTime = draft.localTime.trim();
  if (draft.throttlePerMinute.trim() !== '') body.throttlePerMinute = Number(draft.throttlePerMinute);
  if (draft.ignoreQuietHours) body.ignoreQuietHours = true;
  if (draft.ignoreFrequencyCap) body.ignoreFrequencyCap = true;
  return body;
}

function Check(props: { label: string; checked: boolean; onChange(value: boolean): void }) {
  return (
    <div class="field">
      <Checkbox {...props} />
    </div>
  );
}

export function DeliveryFields({ value, onChange }: { value: DeliveryDraft; onChange(value: DeliveryDraft): void }) {
  const set =
    <Field extends keyof DeliveryDraft>(field: Field) =>
    (next: DeliveryDraft[Field]) =>
      onChange({ ...value, [field]: next });
  return (
    <fieldset>
      <legend>Delivery</legend>
      <Field
        label="At a local time"
        name="local-time"
        type="time"
        value={value.localTime}
        onInput={set('localTime')}
        hint="Each device gets it when its own clock next shows this time (the project's default zone for devices without one). Blank: at once."
      />
      <Field
        label="At most pushes per minute"
        name="throttle"
        type="number"
        value={value.throttlePerMinute}
        onInput={set('throttlePerMinute')}
        hint="Spreads the send so your servers are not flooded when everyone taps at once. Blank: as fast as allowed."
      />
      <Check label="Send during quiet hours" checked={value.ignoreQuietHours} onChange={set('ignoreQuietHours')} />
      <Check
        label="Ignore the frequency cap (transactional)"
        checked={value.ignoreFrequencyCap}
        onChange={set('ignoreFrequencyCap')}
      />
    </fieldset>
  );
}
