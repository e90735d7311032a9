import { Type, type Static } from 'typebox';
import { notBlank } from './common.ts';
import { NullableText, Text } from './text.ts';
import { contentOptionFields } from './message-options.ts';

export const TemplateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    title: NullableText(1024),
    body: Text(4096, { allOf: [notBlank] }),
    url: NullableText(2048),
    imageUrl: NullableText(2048),
    ...contentOptionFields,
  },
  { additionalProperties: false },
);
export type TemplateBody = Static<typeof TemplateBody>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const TemplateView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: NullableString,
  body: Type.String(),
  url: NullableString,
  imageUrl: NullableString,
  ...contentOptionFields,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type TemplateView = Static<typeof TemplateView>;
