import { useState } from 'preact/hooks';
import type { RenderedContent } from '../../../src/schemas/notification.ts';
import type { TemplateView } from '../../../src/schemas/template.ts';
import type { SegmentView } from '../../../src/schemas/segment.ts';
import { api, listAll } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { Field, FormError } from '../fields.tsx';
import { ActionBar, Advanced } from '../layout.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';
import { audienceCount, type TargetType } from './send/audience.ts';
import { confirmationText, scheduledInstant } from './send/confirmation.ts';
import { TimingFields, type Timing } from './send/timing-fields.tsx';
import { SendConfirmation, SentNotice } from './send/send-confirmation.tsx';
import { blankContent, ContentFields, type ContentMode } from './send/content-fields.tsx';
import { blankDelivery, deliveryBody, DeliveryFields } from './send/delivery-fields.tsx';
import { blankOptions } from './send/options-draft.ts';
import { messageOf, previewContent } from './send/message.ts';
import { blankExperiment } from './send/experiment-draft.ts';
import { sendErrorRules } from './send/send-errors.ts';
import { VariantFields } from './send/variant-fields.tsx';
import { ExperimentSettings } from './send/experiment-settings.tsx';
import { placeErrors } from '../field-errors.ts';
import { OptionsFields } from './send/options-fields.tsx';
import { useIdempotencyKeys } from './send/idempotency-keys.ts';
import { useSendAgain } from './send/send-again.ts';
import type { ScreenProps } from '../route.ts';
import { LanguageFields } from './send/language-fields.tsx';
import { AudienceFields } from './send/audience-fields.tsx';
import { PreviewFields } from './send/preview-fields.tsx';

export function SendScreen({ path }: ScreenProps) {
  const { base } = useProject();
  const templates = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const segments = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [mode, setMode] = useState<ContentMode>('inline');
  const [templateId, setTemplateId] = useState('');
  const [content, setContent] = useState(blankContent);
  useSendAgain(base, path, (sent) => {
    setMode('inline');
    setContent(sent);
  });
  const [options, setOptions] = useState(blankOptions);
  const [targetType, setTargetType] = useState<TargetType>('segment');
  const [target, setTarget] = useState('');
  const [previewDevice, setPreviewDevice] = useState('');
  const [timing, setTiming] = useState<Timing>('now');
  const [sendAtLocal, setSendAtLocal] = useState('');
  const [delivery, setDelivery] = useState(blankDelivery);
  const sendAt = timing === 'later' ? scheduledInstant(sendAtLocal) : null;

  const chosenTemplate = templateId || templates.data?.[0]?.id || '';
  const chosenTarget = target.trim();
  const [experiment, setExperiment] = useState(blankExperiment);
  const message = messageOf(mode, chosenTemplate, content, options, experiment);

  // The count follows the audience once it has settled, and reads the settled values, not those of the render.
  const audience = useDebounced(JSON.stringify([targetType, chosenTarget]));
  const [countedType, counted] = JSON.parse(audience) as [TargetType, string];
  const count = useLoad(counted === '' ? null : () => audienceCount(base, countedType, counted), [audience]);
  const shown = previewContent(message);
  const previewInput = useDebounced(JSON.stringify(shown && { ...shown, deviceId: previewDevice.trim() || undefined }));
  const preview = useLoad(
    shown === null || previewInput === 'null'
      ? null
      : () => api<RenderedContent>('POST', `${base}/notifications/preview`, { body: JSON.parse(previewInput) }),
    [previewInput],
  );

  // A send is confirmed, with its audience's count, for the message and audience on screen: Enter in a field only
  // asks, and any change asks again. The accepted notice belongs to the message and audience it was sent with.
  const draft = JSON.stringify([message, targetType, chosenTarget, timing, sendAt, delivery]);
  const [confirmingFor, setConfirmingFor] = useState<string | null>(null);
  const asking = confirmingFor === draft;
  const [sentFor, setSentFor] = useState<string | null>(null);
  // The message last sent: sending it to another audience next loses nothing.
  const [sentContent, setSentContent] = useState<typeof content | null>(null);
  // A message typed and not sent as it stands is the marketer's work; a template chosen is one click away.
  useUnsavedEdits(() =>
    mode === 'variants'
      ? !unchanged(experiment, blankExperiment) && sentFor !== draft
      : mode === 'inline' && !unchanged(content, blankContent) && !unchanged(content, sentContent),
  );
  // The count stands for the audience on screen only once its settled value has caught up and its answer is in.
  const counting = audience !== JSON.stringify([targetType, chosenTarget]) || count.loading;
  // A scheduled send reads its audience again at its time: nobody now may be somebody then.
  const nobodyToSendTo = sendAt === null && !counting && count.error === undefined && count.data === 0;
  const timeMissing = timing === 'later' && sendAt === null;
  // The API sends a past sendAt at once: a mistyped date must not go out as if scheduled.
  const timePassed = sendAt !== null && Date.parse(sendAt) <= Date.now();

  const keys = useIdempotencyKeys();
  const send = useAction(async () => {
    const body = {
      ...message,
      targetType,
      targetIds: [chosenTarget],
      ...(sendAt !== null && { sendAt }),
      ...deliveryBody(delivery),
    };
    const key = keys.keyFor(draft);
    const answer = await api<{ id: string }>('POST', `${base}/notifications`, {
      body,
      headers: { 'idempotency-key': key },
    });
    keys.accepted(draft);
    setConfirmingFor(null);
    setSentFor(draft);
    setSentContent(content);
    return { ...answer, sendAt };
  });

  const placed = placeErrors(send.error, sendErrorRules(mode, experiment.variants.length, options.buttons.length));
  return (
    <form
      class="columns"
      onSubmit={(event) => {
        event.preventDefault();
        setConfirmingFor(draft);
      }}
    >
      <ContentFields
        mode={mode}
        setMode={setMode}
        templates={templates}
        chosenTemplate={chosenTemplate}
        setTemplateId={setTemplateId}
        content={content}
        setContent={setContent}
        errors={placed.fields}
      >
        <VariantFields
          variants={experiment.variants}
          setVariants={(variants) => setExperiment({ ...experiment, variants })}
          errors={placed.fields}
        />
        <ExperimentSettings draft={experiment} setDraft={setExperiment} errors={placed.fields} />
      </ContentFields>
      {mode !== 'variants' && (
        <LanguageFields
          languages={options.languages}
          setLanguages={(languages) => setOptions({ ...options, languages })}
        />
      )}
      <OptionsFields draft={options} setDraft={setOptions} errors={placed.fields} />
      <AudienceFields
        segments={segments}
        targetType={targetType}
        setTargetType={setTargetType}
        target={target}
        setTarget={setTarget}
        count={count}
        error={placed.fields['/targetIds']}
      />
      <PreviewFields
        previewDevice={previewDevice}
        setPreviewDevice={setPreviewDevice}
        preview={preview}
        withLanguages={options.languages.length > 0}
        buttons={options.buttons}
      />
      <DeliveryFields value={delivery} onChange={setDelivery} />
      <fieldset>
        <legend>Send</legend>
        <TimingFields timing={timing} setTiming={setTiming} sendAtLocal={sendAtLocal} setSendAtLocal={setSendAtLocal} />
        <Advanced>
          <Field
            label="Idempotency-Key"
            name="idempotency-key"
            value={keys.idempotencyKey}
            onInput={keys.setIdempotencyKey}
            hint="Sending again with the same key within 24 hours answers the same notification and sends nothing twice. A message or audience edited after a failed send goes with a new key."
          />
        </Advanced>
      </fieldset>
      <ActionBar>
        <button type="submit" disabled={send.running || chosenTarget === '' || timeMissing}>
          {timing === 'later' ? 'Schedule…' : 'Send…'}
        </button>
        {asking && (
          <SendConfirmation
            question={
              timePassed
                ? 'That time has passed: choose a later one, or send it now.'
                : confirmationText(count.error === undefined ? count.data : undefined, counting, sendAt)
            }
            disabled={send.running || counting || nobodyToSendTo || timePassed}
            running={send.running}
            scheduled={sendAt !== null}
            onConfirm={() => void send.run()}
            onCancel={() => setConfirmingFor(null)}
          />
        )}
        <FormError error={send.error} unplaced={placed.unplaced} what="fields" />
        {send.result && sentFor === draft && <SentNotice id={send.result.id} sendAt={send.result.sendAt} />}
      </ActionBar>
    </form>
  );
}
