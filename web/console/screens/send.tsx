import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { RenderedContent, SendNotificationBody } from '../../../src/schemas/notification.ts';
import type { TemplateView } from '../../../src/schemas/template.ts';
import type { SegmentView } from '../../../src/schemas/segment.ts';
import { api, listAll } from '../api.ts';
import { useAction, useDebounced, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, formatTime } from '../ui.tsx';
import { Field, NamedItemSelect, Select } from '../fields.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';
// crypto.randomUUID exists in secure contexts only: a console served over plain http on a LAN host has none.
import { randomId } from '../../shared/random-id.ts';
import { audienceCount, type TargetType, targetTypes } from './send/audience.ts';
import { browserTimeZone, confirmationText, failureText, scheduledInstant } from './send/confirmation.ts';
import { blankContent, ContentFields, type ContentMode } from './send/content-fields.tsx';
import { blankDelivery, deliveryBody, DeliveryFields } from './send/delivery-fields.tsx';
import { blankOptions, optionFields } from './send/options-draft.ts';
import { OptionsFields } from './send/options-fields.tsx';
import { LanguageFields } from './send/language-fields.tsx';

type Timing = 'now' | 'later';

export function SendScreen() {
  const { base } = useProject();
  const templates = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const segments = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [mode, setMode] = useState<ContentMode>('inline');
  const [templateId, setTemplateId] = useState('');
  const [content, setContent] = useState(blankContent);
  const [options, setOptions] = useState(blankOptions);
  const [targetType, setTargetType] = useState<TargetType>('segment');
  const [target, setTarget] = useState('');
  const [previewDevice, setPreviewDevice] = useState('');
  const [idempotencyKey, setIdempotencyKey] = useState<string>(() => randomId());
  const [timing, setTiming] = useState<Timing>('now');
  const [sendAtLocal, setSendAtLocal] = useState('');
  const [delivery, setDelivery] = useState(blankDelivery);
  const sendAt = timing === 'later' ? scheduledInstant(sendAtLocal) : null;

  const chosenTemplate = templateId || templates.data?.[0]?.id || '';
  const chosenTarget = target.trim();
  const message = useMemo(() => {
    const chosen = optionFields(options);
    // A silent push has no title or body, and carries data (here only the notification's id).
    if (chosen.silent) return { ...chosen, data: {} };
    const inline =
      mode === 'template'
        ? { templateId: chosenTemplate }
        : (Object.fromEntries(
            Object.entries(content).filter(([field, text]) => field === 'body' || text !== ''),
          ) as Pick<SendNotificationBody, 'title' | 'body' | 'url' | 'imageUrl'>);
    return { ...inline, ...chosen };
  }, [mode, chosenTemplate, content, options]);

  // The count follows the audience once it has settled, and reads the settled values, not those of the render.
  const audience = useDebounced(JSON.stringify([targetType, chosenTarget]));
  const [countedType, counted] = JSON.parse(audience) as [TargetType, string];
  const count = useLoad(counted === '' ? null : () => audienceCount(base, countedType, counted), [audience]);
  const { templateId: previewTemplate, title, body, url, imageUrl, localizations } = message as SendNotificationBody;
  const previewInput = useDebounced(
    JSON.stringify({
      ...(previewTemplate === undefined ? { title, body, url, imageUrl } : { templateId: previewTemplate }),
      localizations,
      deviceId: previewDevice.trim() || undefined,
    }),
  );
  const nothingToRender = options.silent || (mode === 'template' ? chosenTemplate === '' : content.body === '');
  const preview = useLoad(
    nothingToRender
      ? null
      : () => api<RenderedContent>('POST', `${base}/notifications/preview`, { body: JSON.parse(previewInput) }),
    [previewInput],
  );

  // A send is confirmed, with its audience's count, for the message and audience on screen: Enter in a field only
  // asks, and any change asks again. The accepted notice belongs to the message and audience it was sent with.
  const draft = JSON.stringify([message, targetType, chosenTarget, timing, sendAt, delivery]);
  const [confirmingFor, setConfirmingFor] = useState<string | null>(null);
  // The question takes the focus on its safe answer, as every confirmation does: Enter or Escape there cancels.
  const cancelButton = useRef<HTMLButtonElement>(null);
  const asking = confirmingFor === draft;
  useLayoutEffect(() => {
    if (asking) cancelButton.current?.focus();
  }, [asking]);
  const [sentFor, setSentFor] = useState<string | null>(null);
  // The message last sent: sending it to another audience next loses nothing.
  const [sentContent, setSentContent] = useState<typeof content | null>(null);
  // A message typed and not sent as it stands is the marketer's work; a template chosen is one click away.
  useUnsavedEdits(() => mode === 'inline' && !unchanged(content, blankContent) && !unchanged(content, sentContent));
  // The count stands for the audience on screen only once its settled value has caught up and its answer is in.
  const counting = audience !== JSON.stringify([targetType, chosenTarget]) || count.loading;
  // A scheduled send reads its audience again at its time: nobody now may be somebody then.
  const nobodyToSendTo = sendAt === null && !counting && count.error === undefined && count.data === 0;
  const timeMissing = timing === 'later' && sendAt === null;
  // The API sends a past sendAt at once: a mistyped date must not go out as if scheduled.
  const timePassed = sendAt !== null && Date.parse(sendAt) <= Date.now();

  // The keys of the sends whose answer did not come, by the draft each went with: a retry of such a draft, even after
  // other edits, takes its key again, since it may have been accepted. The API answers a key sent again with the first
  // send's id whatever the message, so a draft not tried yet takes the key in the field if no other draft took it (a
  // fresh one, or one typed), else a new one, rather than being answered as another and dropped. An accepted draft's
  // key is retired: the same message sent again afterwards is another send.
  const [keysTried, setKeysTried] = useState<ReadonlyMap<string, string>>(new Map());
  const send = useAction(async () => {
    const body = {
      ...message,
      targetType,
      targetIds: [chosenTarget],
      ...(sendAt !== null && { sendAt }),
      ...deliveryBody(delivery),
    };
    const fieldKeyTaken = [...keysTried.values()].includes(idempotencyKey);
    const key = keysTried.get(draft) ?? (fieldKeyTaken ? randomId() : idempotencyKey);
    setIdempotencyKey(key);
    setKeysTried((tried) => new Map(tried).set(draft, key));
    const answer = await api<{ id: string }>('POST', `${base}/notifications`, {
      body,
      headers: { 'idempotency-key': key },
    });
    // The next message is another send; a retry of this one (same key) would answer the same id.
    setIdempotencyKey(randomId());
    setKeysTried((tried) => {
      const pending = new Map(tried);
      pending.delete(draft);
      return pending;
    });
    setConfirmingFor(null);
    setSentFor(draft);
    setSentContent(content);
    return { ...answer, sendAt };
  });

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
      />
      <LanguageFields
        languages={options.languages}
        setLanguages={(languages) => setOptions({ ...options, languages })}
      />
      <OptionsFields draft={options} setDraft={setOptions} />
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
            value={chosenTarget}
            onChange={setTarget}
          />
        ) : (
          <Field
            label={targetType === 'userId' ? 'User id' : 'Device id'}
            name="send-target"
            value={target}
            onInput={setTarget}
            required
          />
        )}
        <p class="count" aria-live="polite" data-testid="audience-count">
          {chosenTarget === ''
            ? 'Choose an audience.'
            : count.error
              ? `Cannot count: ${failureText(count.error)}`
              : count.loading || count.data === undefined
                ? 'Counting…'
                : `${count.data} subscribed device${count.data === 1 ? '' : 's'}`}
        </p>
      </fieldset>
      <fieldset>
        <legend>Preview</legend>
        <Field
          label="Preview for device id"
          name="preview-device"
          value={previewDevice}
          onInput={setPreviewDevice}
          hint="Renders the message with this device's tags and user id; without one, device variables are empty."
        />
        <ErrorMessage error={preview.error} />
        {preview.data && !preview.error && (
          <div class="push-preview" data-testid="send-preview">
            <strong>{preview.data.title ?? ''}</strong>
            <p>{preview.data.body}</p>
            {options.languages.length > 0 && (
              <small class="muted" data-testid="preview-language">
                {preview.data.language === undefined
                  ? "In the message's own language"
                  : `In ${preview.data.language}, for this device's language`}
              </small>
            )}
          </div>
        )}
      </fieldset>
      <DeliveryFields value={delivery} onChange={setDelivery} />
      <fieldset>
        <legend>Send</legend>
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
        <Field
          label="Idempotency-Key"
          name="idempotency-key"
          value={idempotencyKey}
          onInput={setIdempotencyKey}
          hint="Sending again with the same key within 24 hours answers the same notification and sends nothing twice. A message or audience edited after a failed send goes with a new key."
        />
        <button type="submit" disabled={send.running || chosenTarget === '' || timeMissing}>
          {timing === 'later' ? 'Schedule…' : 'Send…'}
        </button>
        {asking && (
          // Escape answers as Cancel does; the question is read out as it appears and as the count comes in.
          <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && setConfirmingFor(null)}>
            <legend class="visually-hidden">Confirm the send</legend>
            <p data-testid="send-confirmation" aria-live="polite">
              {timePassed
                ? 'That time has passed: choose a later one, or send it now.'
                : confirmationText(count.error === undefined ? count.data : undefined, counting, sendAt)}
            </p>
            <button
              type="button"
              disabled={send.running || counting || nobodyToSendTo || timePassed}
              onClick={() => void send.run()}
            >
              {send.running ? 'Sending…' : sendAt === null ? 'Confirm send' : 'Confirm schedule'}
            </button>{' '}
            <button type="button" class="secondary" ref={cancelButton} onClick={() => setConfirmingFor(null)}>
              Cancel
            </button>
          </fieldset>
        )}
        <ErrorMessage error={send.error} />
        {send.result && sentFor === draft && (
          <p role="status" class="notice">
            {send.result.sendAt === null ? 'Accepted' : `Scheduled for ${formatTime(send.result.sendAt)}`} as
            notification <code>{send.result.id}</code>.{' '}
            <a href="#/notifications">
              {send.result.sendAt === null ? 'Follow it' : 'Follow or cancel it'} on the Notifications screen
            </a>
            .
          </p>
        )}
      </fieldset>
    </form>
  );
}
