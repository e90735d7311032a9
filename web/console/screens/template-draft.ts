import type { TemplateBody, TemplateView } from '../../../src/schemas/template.ts';
import { contentRules, type FieldRule, nameRule } from '../field-errors.ts';

/** The template editor's fields, as its inputs hold them. */
export type Draft = { name: string; title: string; body: string; url: string; imageUrl: string };
export const blank: Draft = { name: '', title: '', body: '', url: '', imageUrl: '' };
export const liquidFields = [
  ['title', 'Title'],
  ['body', 'Body'],
  ['url', 'URL'],
  ['imageUrl', 'Image URL'],
] as const;

export function draftOf(template: TemplateView): Draft {
  return {
    name: template.name,
    title: template.title ?? '',
    body: template.body,
    url: template.url ?? '',
    imageUrl: template.imageUrl ?? '',
  };
}

export function bodyOf(draft: Draft): TemplateBody {
  return {
    name: draft.name,
    body: draft.body,
    title: draft.title || null,
    url: draft.url || null,
    imageUrl: draft.imageUrl || null,
  };
}

export type TemplateField = keyof Draft | 'deviceId';
export const errorRules: FieldRule<TemplateField>[] = [
  nameRule('name'),
  ...contentRules((field) => field),
  {
    path: '/deviceId',
    field: 'deviceId',
    sentence: 'Give a device id as your app registered it: up to 128 letters, digits and . _ : -',
  },
];
