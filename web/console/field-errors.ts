import { ApiFailure, type ErrorDetail } from './api.ts';

/**
 * Where an API error detail belongs on a form: the detail's path (or its start), the field that shows it (none: a
 * setting not on screen, said at the top), and what to say, fixed or from the API's own message.
 */
export interface FieldRule<F extends string> {
  path: string;
  field?: F;
  sentence: string | ((apiMessage: string, path: string) => string);
}

/** A form's errors in words, by the field that shows each. */
export type PlacedFields = Partial<Record<string, string>>;

/** A path as words, for a detail no rule places: `/buttons/0/url` is "Buttons 1 url". */
function pathInWords(path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replace(/([a-z])([A-Z])/g, '$1 $2')))
    .join(' ')
    .toLowerCase();
  return words === '' ? 'This' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** A detail as a sentence, without its API path: a rule's own, else the path in words before the API's message. */
export function detailInWords(detail: ErrorDetail, rule?: FieldRule<string>): string {
  if (rule === undefined) return `${pathInWords(detail.path)} ${detail.message}.`;
  return typeof rule.sentence === 'string' ? rule.sentence : rule.sentence(detail.message, detail.path);
}

/**
 * The API's errors placed on the fields they are about, each in a sentence a marketer reads (never the API's path or
 * a JSON shape); what no field on screen holds stays as the error at the top, its details in words.
 */
export function placeErrors<F extends string>(
  error: ApiFailure | undefined,
  rules: FieldRule<F>[],
): { fields: Partial<Record<F, string>>; unplaced: ApiFailure | undefined } {
  const fields: Partial<Record<F, string>> = {};
  if (error === undefined) return { fields, unplaced: undefined };
  const left: ErrorDetail[] = [];
  for (const detail of error.details) {
    const rule = rules.find(
      (candidate) => detail.path === candidate.path || detail.path.startsWith(`${candidate.path}/`),
    );
    if (rule?.field !== undefined) fields[rule.field] ??= detailInWords(detail, rule);
    else left.push({ path: '', message: detailInWords(detail, rule) });
  }
  if (error.details.length > 0 && left.length === 0) return { fields, unplaced: undefined };
  return { fields, unplaced: new ApiFailure(error.status, error.code, error.message, left) };
}

const liquidProblem = /^is not a valid Liquid template: /;

/**
 * For a Liquid field: the parser's words where the {{ }} or {% %} is wrong, or that it renders blank for the device,
 * else `otherwise`.
 */
export const liquidSentence =
  (otherwise: string) =>
  (apiMessage: string): string => {
    if (liquidProblem.test(apiMessage))
      return `A {{ }} or {% %} here is incomplete or misspelt (${apiMessage.replace(liquidProblem, '')}).`;
    if (apiMessage.includes('renders blank'))
      return 'This comes out blank for this device: give its {{ }} a default, e.g. {{ device.tags.name | default: "there" }}.';
    return otherwise;
  };

type ContentField = 'title' | 'body' | 'url' | 'imageUrl';

/** The rules of a message's content, the same in a template, a send and an in-app message, at `prefix` (e.g. ''). */
export const contentRules = <F extends string>(field: (name: ContentField) => F, prefix = ''): FieldRule<F>[] => [
  {
    path: `${prefix}/title`,
    field: field('title'),
    sentence: liquidSentence('Keep the title to 1,024 characters.'),
  },
  {
    path: `${prefix}/body`,
    field: field('body'),
    sentence: liquidSentence('Write the message, up to 4,096 characters.'),
  },
  {
    path: `${prefix}/url`,
    field: field('url'),
    sentence: liquidSentence(
      "Give the page or app link a tap opens (https://… or your app's own link); javascript:, data: and vbscript: links are refused.",
    ),
  },
  {
    path: `${prefix}/imageUrl`,
    field: field('imageUrl'),
    sentence: liquidSentence("Give the image's full web address (https://…), up to 2,048 characters."),
  },
];

/** The rule of a name every saved item has. */
export const nameRule = <F extends string>(field: F): FieldRule<F> => ({
  path: '/name',
  field,
  sentence: 'Give it a name of 1 to 256 characters.',
});
