import { Type, type Static, type TString } from 'typebox';
import { EventType } from './events.ts';
import { IsoTime, notBlank } from './common.ts';
import { Text } from './text.ts';
import { httpUrlPattern } from './url-rule.ts';

export const inAppStatuses = ['active', 'paused'] as const;
export const inAppLayouts = ['modal', 'banner'] as const;
const Status = (options = {}) => Type.Union([Type.Literal('active'), Type.Literal('paused')], options);
const Layout = (options = {}) => Type.Union([Type.Literal('modal'), Type.Literal('banner')], options);
export const maxInAppButtons = 2;

/**
 * A link the SDK opens or an image it loads: http(s) only, so a `javascript:` or `data:` url can never run in the
 * page that shows the message.
 */
const WebUrl = Type.String({
  maxLength: 2048,
  pattern: httpUrlPattern,
  errorMessage: 'must be an http:// or https:// URL of at most 2048 characters, without spaces or NUL',
});

const InAppButton = Type.Object(
  {
    id: Type.String({
      pattern: '^[A-Za-z0-9._:-]{1,64}$',
      errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 . _ : -',
    }),
    text: Text(64, { allOf: [{ ...notBlank, errorMessage: 'must show some text' }] }),
    action: Type.Union([Type.Literal('url'), Type.Literal('close')], { errorMessage: 'must be "url" or "close"' }),
    url: Type.Optional(WebUrl),
  },
  { additionalProperties: false },
);

const triggerMessage = 'must have exactly one of "event" (an event type) and "on" ("session_start")';

/** Exactly one of the two: an event of that type, or the start of a session. */
const InAppTrigger = Type.Union(
  [
    Type.Object({ event: EventType }, { additionalProperties: false }),
    Type.Object({ on: Type.Literal('session_start') }, { additionalProperties: false }),
  ],
  { errorMessage: triggerMessage },
);

export const InAppFrequency = Type.Union(
  [
    Type.Literal('once'),
    Type.Literal('always'),
    Type.Object({ everyDays: Type.Integer({ minimum: 1, maximum: 365 }) }, { additionalProperties: false }),
  ],
  { errorMessage: 'must be "once", "always" or {"everyDays": 1 to 365}' },
);
export type InAppFrequency = Static<typeof InAppFrequency>;

const NullableText = (maxLength: number) =>
  Type.Optional(
    Type.Union([Text(maxLength), Type.Null()], {
      errorMessage: `must be at most ${maxLength} characters without NUL, or null`,
    }),
  );
const Nullable = (schema: TString) =>
  Type.Optional(
    Type.Union([schema, Type.Null()], { errorMessage: (schema as { errorMessage?: string }).errorMessage }),
  );

/** CONTRACTS §16: a modal or banner shown inside the site or app when its trigger fires. */
export const InAppMessageBody = Type.Object(
  {
    name: Text(256, { minLength: 1, errorMessage: 'must be 1 to 256 characters, without NUL' }),
    status: Status({ errorMessage: 'must be "active" or "paused"' }),
    layout: Layout({ errorMessage: 'must be "modal" or "banner"' }),
    title: NullableText(1024),
    body: Text(4096, { allOf: [notBlank] }),
    imageUrl: Nullable(WebUrl),
    buttons: Type.Optional(
      Type.Array(InAppButton, {
        maxItems: maxInAppButtons,
        errorMessage: `must be an array of at most ${maxInAppButtons} buttons`,
      }),
    ),
    trigger: InAppTrigger,
    segmentId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 128 }), Type.Null()])),
    startAt: Nullable(IsoTime()),
    endAt: Nullable(IsoTime()),
    frequency: InAppFrequency,
    priority: Type.Optional(
      Type.Integer({ minimum: -1000, maximum: 1000, errorMessage: 'must be a whole number from -1000 to 1000' }),
    ),
  },
  { additionalProperties: false },
);
export type InAppMessageBody = Static<typeof InAppMessageBody>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const InAppButtonView = Type.Object({
  id: Type.String(),
  text: Type.String(),
  action: Type.Union([Type.Literal('url'), Type.Literal('close')]),
  url: Type.Optional(Type.String()),
});
export type InAppButtonView = Static<typeof InAppButtonView>;

export const InAppTriggerView = Type.Union([
  Type.Object({ event: Type.String() }),
  Type.Object({ on: Type.Literal('session_start') }),
]);
export type InAppTriggerView = Static<typeof InAppTriggerView>;

export const InAppStats = Type.Object({ displayed: Type.Integer(), clicked: Type.Integer(), closed: Type.Integer() });
export type InAppStats = Static<typeof InAppStats>;

export const InAppMessageView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Status(),
  layout: Layout(),
  title: NullableString,
  body: Type.String(),
  imageUrl: NullableString,
  buttons: Type.Array(InAppButtonView),
  trigger: InAppTriggerView,
  segmentId: NullableString,
  startAt: NullableString,
  endAt: NullableString,
  frequency: InAppFrequency,
  priority: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  /** On the read of one message: distinct devices that reported each of the three events for it. */
  stats: Type.Optional(InAppStats),
});
export type InAppMessageView = Static<typeof InAppMessageView>;

/** What the SDK route answers: a message as this device sees it, its title and body rendered for the device. */
export const DeviceInAppMessage = Type.Pick(InAppMessageView, [
  'id',
  'layout',
  'title',
  'body',
  'imageUrl',
  'buttons',
  'trigger',
  'frequency',
  'priority',
]);
export type DeviceInAppMessage = Static<typeof DeviceInAppMessage>;
