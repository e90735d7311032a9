import { useState } from 'preact/hooks';
import type { WebhookAttemptView, WebhookView, WebhookEventType } from '../../../src/schemas/webhook.ts';
import { inWords, webhookEventTypes, webhookEventWords } from '../words.ts';
import { type FieldRule, placeErrors } from '../field-errors.ts';
import { DataTable, Secret, useToast } from '../layout.tsx';
import { api, listAll, query } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { Checkbox, Field } from '../fields.tsx';
import { ConfirmButton } from '../save-controls.tsx';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';

const recentAttempts = 5;

function State({ webhook }: { webhook: WebhookView }) {
  if (webhook.enabled) return <span class="status status-completed">enabled</span>;
  return (
    <>
      <span class="status status-failed">disabled</span>
      <div>
        <small>
          {webhook.disabledReason ?? 'by hand'}, {formatTime(webhook.disabledAt)}
        </small>
      </div>
    </>
  );
}

function Attempts({ path }: { path: string }) {
  const loaded = useLoad(
    () => api<WebhookAttemptView[]>('GET', `${path}/attempts${query({ limit: recentAttempts })}`),
    [path],
  );
  return (
    <LoadedView loaded={loaded} empty="No call yet.">
      {(attempts) => (
        <ul class="attempts">
          {attempts.map((attempt) => (
            <li key={`${attempt.webhookId}${attempt.at}`}>
              {formatTime(attempt.at)} · {attempt.type} · <strong>{attempt.status ?? attempt.error}</strong> ·{' '}
              {attempt.durationMs} ms
            </li>
          ))}
        </ul>
      )}
    </LoadedView>
  );
}

const webhookErrorRules: FieldRule<'url' | 'events'>[] = [
  {
    path: '/url',
    field: 'url',
    sentence: 'This address cannot receive webhooks: give a full web address (https://…) this server may call.',
  },
  { path: '/events', field: 'events', sentence: 'Choose at least one event to post.' },
];

const defaultEvents: WebhookEventType[] = ['notification.completed', 'message.failed'];

function CreateWebhook({ base, onCreated }: { base: string; onCreated(): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(defaultEvents);
  const create = useAction(async () => {
    const created = await api<WebhookView>('POST', `${base}/webhooks`, { body: { url, events } });
    // The next endpoint starts from a blank form.
    setUrl('');
    setEvents(defaultEvents);
    onCreated();
    return created;
  });
  const { fields, unplaced } = placeErrors(create.error, webhookErrorRules);
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((chosen) => (on ? [...chosen, type] : chosen.filter((item) => item !== type)));
  return (
    <section aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New endpoint</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <Field
          label="URL"
          name="webhook-url"
          value={url}
          onInput={setUrl}
          required
          error={fields.url}
          hint="Where each event is posted, signed with the secret shown once the endpoint is created."
        />
        <fieldset aria-describedby={fields.events && 'webhook-events-error'}>
          <legend>Events</legend>
          {fields.events && (
            <small id="webhook-events-error" class="field-error">
              {fields.events}
            </small>
          )}
          {webhookEventTypes.map((type) => (
            <Checkbox
              key={type}
              class="checkbox"
              label={webhookEventWords[type]}
              checked={events.includes(type)}
              onChange={(checked) => toggle(type, checked)}
            />
          ))}
        </fieldset>
        <button type="submit" disabled={create.running}>
          Create endpoint
        </button>
      </form>
      <ErrorMessage error={unplaced} />
      {create.result?.secret && (
        <div class="notice" role="status">
          <p>Signing secret, shown this once: copy it now.</p>
          <Secret label="Signing secret" value={create.result.secret} testId="webhook-secret" />
        </div>
      )}
    </section>
  );
}

export function WebhooksScreen() {
  const { base } = useProject();
  const loaded = useLoad(() => listAll<WebhookView>(`${base}/webhooks`), [base]);
  const { toast, say } = useToast();
  const change = useAction(async (webhook: WebhookView, enabled: boolean) => {
    await api('PUT', `${base}/webhooks/${webhook.id}`, {
      body: { url: webhook.url, events: webhook.events, enabled },
    });
    loaded.reload();
    say(enabled ? 'Endpoint enabled.' : 'Endpoint disabled: no event is posted to it.');
  });
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/webhooks/${id}`);
    loaded.reload();
    say('Endpoint deleted.');
  });
  return (
    <>
      <ErrorMessage error={change.error ?? remove.error} />
      <LoadedView loaded={loaded} empty="No webhook endpoint yet.">
        {(webhooks) => (
          <DataTable
            caption="Webhook endpoints, newest first"
            rows={webhooks}
            rowKey={(webhook) => webhook.id}
            rowProps={(webhook) => ({ 'data-webhook': webhook.id })}
            columns={[
              {
                label: 'Endpoint',
                cell: (webhook) => (
                  <>
                    <code>{webhook.url}</code>
                    <div>
                      <small>{webhook.events.map((type) => inWords(webhookEventWords, type)).join('; ')}</small>
                    </div>
                  </>
                ),
              },
              { label: 'State', cell: (webhook) => <State webhook={webhook} /> },
              { label: 'Recent calls', cell: (webhook) => <Attempts path={`${base}/webhooks/${webhook.id}`} /> },
              {
                label: 'Actions',
                cell: (webhook) => (
                  <>
                    <button
                      type="button"
                      class="secondary"
                      disabled={change.running}
                      onClick={() => void change.run(webhook, !webhook.enabled)}
                    >
                      {webhook.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <ConfirmButton
                      label="Delete"
                      question="Delete this endpoint? Events not yet delivered to it are dropped."
                      disabled={remove.running}
                      onConfirm={() => void remove.run(webhook.id)}
                    />
                  </>
                ),
              },
            ]}
          />
        )}
      </LoadedView>
      <CreateWebhook
        base={base}
        onCreated={() => {
          loaded.reload();
          say('Endpoint created: copy its signing secret now, as it is shown once.');
        }}
      />
      {toast}
    </>
  );
}
