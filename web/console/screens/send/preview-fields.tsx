import type { RenderedContent } from '../../../../src/schemas/notification.ts';
import type { Loaded } from '../../hooks.ts';
import { Field } from '../../fields.tsx';
import { ErrorMessage } from '../../ui.tsx';
import { Advanced } from '../../layout.tsx';
import { DevicePicker } from '../../device-picker.tsx';
import { PushPreviews, type PreviewButton } from './push-previews.tsx';

/** The message as each platform shows it, rendered for the device chosen (or for none: device variables empty). */
export function PreviewFields({
  previewDevice,
  setPreviewDevice,
  preview,
  withLanguages,
  buttons,
}: {
  previewDevice: string;
  setPreviewDevice(deviceId: string): void;
  preview: Loaded<RenderedContent>;
  withLanguages: boolean;
  buttons: PreviewButton[];
}) {
  return (
    <fieldset>
      <legend>Preview</legend>
      <DevicePicker name="preview" picked={previewDevice.trim()} onPick={setPreviewDevice} />
      <Advanced>
        <Field
          label="Preview for device id"
          name="preview-device"
          value={previewDevice}
          onInput={setPreviewDevice}
          hint="Picked above or typed: renders the message with this device's tags and user id; without one, device variables are empty."
        />
      </Advanced>
      <ErrorMessage error={preview.error} />
      {preview.data && !preview.error && (
        <div data-testid="send-preview">
          <PushPreviews content={preview.data} buttons={buttons} />
          {withLanguages && (
            <small class="muted" data-testid="preview-language">
              {preview.data.language === undefined
                ? "In the message's own language"
                : `In ${preview.data.language}, for this device's language`}
            </small>
          )}
        </div>
      )}
    </fieldset>
  );
}
