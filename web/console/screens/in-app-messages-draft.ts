import type { InAppMessageBody, InAppMessageView } from '../../../src/schemas/in-app-message.ts';
import { contentRules, type FieldRule, nameRule } from '../field-errors.ts';

export interface ButtonDraft {
  id: string;
  text: string;
  action: 'url' | 'close';
  url: string;
}

/** The editor's fields, all as the inputs hold them. */
export interface InAppDraft {
  name: string;
  status: 'active' | 'paused';
  layout: 'modal' | 'banner';
  title: string;
  body: string;
  imageUrl: string;
  buttons: ButtonDraft[];
  triggerKind: 'event' | 'session_start';
  triggerEvent: string;
  segmentId: string;
  startAt: string;
  endAt: string;
  frequency: 'once' | 'always' | 'everyDays';
  everyDays: string;
  priority: string;
}

export const blankDraft: InAppDraft = {
  name: '',
  status: 'active',
  layout: 'modal',
  title: '',
  body: '',
  imageUrl: '',
  buttons: [],
  triggerKind: 'event',
  triggerEvent: '',
  segmentId: '',
  startAt: '',
  endAt: '',
  frequency: 'once',
  everyDays: '1',
  priority: '0',
};

/** An ISO time as a datetime-local input shows it, in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const time = new Date(iso);
  return new Date(time.getTime() - time.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function draftOf(message: InAppMessageView): InAppDraft {
  const { frequency, trigger } = message;
  return {
    name: message.name,
    status: message.status,
    layout: message.layout,
    title: message.title ?? '',
    body: message.body,
    imageUrl: message.imageUrl ?? '',
    buttons: message.buttons.map((button) => ({ ...button, url: button.url ?? '' })),
    triggerKind: 'event' in trigger ? 'event' : 'session_start',
    triggerEvent: 'event' in trigger ? trigger.event : '',
    segmentId: message.segmentId ?? '',
    startAt: localInput(message.startAt),
    endAt: localInput(message.endAt),
    frequency: typeof frequency === 'string' ? frequency : 'everyDays',
    everyDays: typeof frequency === 'string' ? '1' : String(frequency.everyDays),
    priority: String(message.priority),
  };
}

/** What is sent: empty optional fields left out or null, so that the API's 400 names what the user wrote. */
export function bodyOf(draft: InAppDraft): InAppMessageBody {
  return {
    name: draft.name,
    status: draft.status,
    layout: draft.layout,
    title: draft.title || null,
    body: draft.body,
    imageUrl: draft.imageUrl || null,
    buttons: draft.buttons.map(({ id, text, action, url }) =>
      action === 'url' ? { id, text, action, url } : { id, text, action },
    ),
    trigger: draft.triggerKind === 'event' ? { event: draft.triggerEvent } : { on: 'session_start' },
    segmentId: draft.segmentId || null,
    startAt: draft.startAt ? new Date(draft.startAt).toISOString() : null,
    endAt: draft.endAt ? new Date(draft.endAt).toISOString() : null,
    frequency: draft.frequency === 'everyDays' ? { everyDays: Number(draft.everyDays) } : draft.frequency,
    priority: Number(draft.priority),
  };
}

/** Where the API's errors go on the editor, keyed by the path each field shows (e.g. /buttons/0/url), in words. */
export const inAppErrorRules = (buttonCount: number): FieldRule<string>[] => [
  nameRule('/name'),
  ...contentRules((field) => `/${field}`),
  ...Array.from({ length: buttonCount }, (_, index) => [
    {
      path: `/buttons/${index}/id`,
      field: `/buttons/${index}/id`,
      sentence: "Give each button its own id: up to 64 letters, digits and . _ : -, unlike the other button's.",
    },
    {
      path: `/buttons/${index}/text`,
      field: `/buttons/${index}/text`,
      sentence: 'Write what the button says, up to 64 characters.',
    },
    {
      path: `/buttons/${index}/url`,
      field: `/buttons/${index}/url`,
      sentence: 'Give the web address (http:// or https://) this button opens.',
    },
  ]).flat(),
  { path: '/buttons', sentence: 'A message has at most 2 buttons.' },
  { path: '/trigger', field: '/trigger', sentence: 'Name the event type that shows the message.' },
  { path: '/segmentId', sentence: 'The segment chosen no longer exists: choose another, or every device.' },
  { path: '/startAt', field: '/startAt', sentence: 'Pick the day and time it starts, or leave it blank.' },
  { path: '/endAt', field: '/endAt', sentence: 'Pick an end after its start, or leave it blank.' },
  { path: '/frequency', field: '/frequency', sentence: 'Give a whole number of days from 1 to 365.' },
  { path: '/priority', field: '/priority', sentence: 'Give a whole number from -1000 to 1000.' },
];
