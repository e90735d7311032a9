import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';

export const platformNames = ['android', 'ios', 'web'] as const;
type PlatformName = (typeof platformNames)[number];

export interface ButtonDraft {
  id: string;
  text: string;
  url: string;
}

export interface LanguageDraft {
  tag: string;
  title: string;
  body: string;
}

/** The send screen's Options section as typed: empty text is an option left out. */
export interface OptionsDraft {
  priority: '' | 'high' | 'normal';
  ttl: string;
  collapseId: string;
  badge: string;
  sound: string;
  platforms: PlatformName[];
  silent: boolean;
  buttons: ButtonDraft[];
  languages: LanguageDraft[];
}

export const blankOptions: OptionsDraft = {
  priority: '',
  ttl: '',
  collapseId: '',
  badge: '',
  sound: '',
  platforms: [...platformNames],
  silent: false,
  buttons: [],
  languages: [],
};

type OptionFields = Pick<
  SendNotificationBody,
  'priority' | 'ttl' | 'collapseId' | 'badge' | 'sound' | 'platforms' | 'silent' | 'buttons' | 'localizations'
>;

/** A number typed as a whole number, else the text itself, for the API to name in its 400. */
const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : (text as unknown as number));

/**
 * The request fields of the options set: nothing for an option left as it was, so a message without options is sent
 * as one. Every platform checked is no platforms field at all.
 */
export function optionFields(draft: OptionsDraft): OptionFields {
  const fields: OptionFields = {};
  if (draft.priority !== '') fields.priority = draft.priority;
  if (draft.ttl.trim() !== '') fields.ttl = wholeNumber(draft.ttl);
  if (draft.collapseId !== '') fields.collapseId = draft.collapseId;
  if (draft.badge.trim() !== '') fields.badge = wholeNumber(draft.badge);
  if (draft.sound !== '') fields.sound = draft.sound;
  if (draft.platforms.length !== platformNames.length) fields.platforms = draft.platforms;
  if (draft.silent) fields.silent = true;
  if (draft.buttons.length > 0)
    fields.buttons = draft.buttons.map(({ id, text, url }) => ({ id, text, ...(url !== '' && { url }) }));
  if (draft.languages.length > 0)
    fields.localizations = Object.fromEntries(
      draft.languages.map(({ tag, title, body }) => [
        tag,
        { ...(title !== '' && { title }), ...(body !== '' && { body }) },
      ]),
    );
  return fields;
}
