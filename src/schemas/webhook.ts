import { Type, type Static } from 'typebox';
import { PageLimit, ProjectParams } from './common.ts';
import { httpUrlPattern } from './url-rule.ts';

/** The events an endpoint may subscribe to (CONTRACTS §17). */
export const webhookEventTypes = [
  'notification.completed',
  'message.failed',
  'message.clicked',
  'device.unsubscribed',
  'in_app.displayed',
  'in_app.clicked',
  'in_app.closed',
  'message.converted',
  'journey.step',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      format: 'uri',
      pattern: httpUrlPattern,
      errorMessage: 'must be an https:// URL (http:// only to a private host with WEBHOOKS_ALLOW_PRIVATE)',
    }),
    events: Type.Array(
      Type.Enum(webhookEventTypes, { errorMessage: `must be one of ${webhookEventTypes.join(', ')}` }),
      { minItems: 1, maxItems: webhookEventTypes.length, uniqueItems: true },
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WebhookBody = Static<typeof WebhookBody>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const WebhookView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  /** Why the service disabled it (a 410, a day of failures); null when enabled or disabled by the customer. */
  disabledReason: NullableString,
  disabledAt: NullableString,
  /** `whsec_` + base64, answered only when the endpoint is created. */
  secret: Type.Optional(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type WebhookView = Static<typeof WebhookView>;

export const WebhookIdParams = Type.Object({
  projectId: ProjectParams.properties.projectId,
  id: Type.String({ minLength: 1, maxLength: 128 }),
});

/** How a call without an answer ended, coarsely (never the network error's text, CONTRACTS §17). */
export const WebhookCallFailure = Type.Union([
  Type.Literal('refused'),
  Type.Literal('timed_out'),
  Type.Literal('tls_failed'),
]);
export type WebhookCallFailure = Static<typeof WebhookCallFailure>;

export const WebhookAttemptView = Type.Object({
  webhookId: Type.String(),
  type: Type.String(),
  /** The receiver's status code; null when no answer came (`error` says how the call ended). */
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([WebhookCallFailure, Type.Null()]),
  durationMs: Type.Number(),
  at: Type.String(),
});
export type WebhookAttemptView = Static<typeof WebhookAttemptView>;

export const WebhookAttemptsQuery = Type.Object({ limit: PageLimit(100, 50) }, { additionalProperties: false });
