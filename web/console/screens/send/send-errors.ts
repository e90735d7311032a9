import { contentRules, type FieldRule } from '../../field-errors.ts';
import { experimentErrorRules } from './experiment-draft.ts';

const buttonRules = (index: number): FieldRule<string>[] => [
  {
    path: `/buttons/${index}/id`,
    field: `/buttons/${index}/id`,
    sentence: "Give each button its own id: up to 64 letters, digits and . _ : -, unlike the other button's.",
  },
  { path: `/buttons/${index}/text`, field: `/buttons/${index}/text`, sentence: 'Write what the button says.' },
  {
    path: `/buttons/${index}/url`,
    field: `/buttons/${index}/url`,
    sentence: 'Give the page or app link this button opens, up to 2,048 characters; javascript: links are refused.',
  },
];

/** Where the API's errors about a send go, for the content mode, variants and buttons on screen. */
export const sendErrorRules = (
  mode: 'inline' | 'template' | 'variants',
  variantCount: number,
  buttonCount: number,
): FieldRule<string>[] => [
  ...(mode === 'variants' ? experimentErrorRules(variantCount) : []),
  ...(mode === 'inline' ? contentRules((field) => `/${field}`) : []),
  ...Array.from({ length: buttonCount }, (_, index) => buttonRules(index)).flat(),
  { path: '/templateId', sentence: 'The template chosen no longer exists: choose another.' },
  { path: '/targetIds', field: '/targetIds', sentence: 'Choose who receives it: a segment, a user id or a device id.' },
  { path: '/sendAt', sentence: 'Pick a day and time to send it, or send it now.' },
];
