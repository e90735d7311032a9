import type { ComponentChildren } from 'preact';
import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { Field, NamedItemSelect, Select } from '../../fields.tsx';
import type { PlacedFields } from '../../field-errors.ts';

export type ContentMode = 'template' | 'inline' | 'variants';
export const blankContent = { title: '', body: '', url: '', imageUrl: '' };
export type InlineContent = typeof blankContent;

const sources = [
  ['inline', 'Inline content'],
  ['template', 'A template'],
  ['variants', 'Variants to compare (an experiment)'],
] as const;

/** Content as typed, its blank fields left out but the body, which the API names when it is missing. */
export const typedContent = (content: InlineContent) =>
  Object.fromEntries(Object.entries(content).filter(([field, text]) => field === 'body' || text !== '')) as Pick<
    SendNotificationBody,
    'title' | 'body' | 'url' | 'imageUrl'
  > & { body: string };

/**
 * The message's content: a template chosen, a title, body, URL and image typed, or variants (the children, offered
 * only where a screen gives them).
 */
export function ContentFields({
  mode,
  setMode,
  templates,
  chosenTemplate,
  setTemplateId,
  content,
  setContent,
  children,
  errors = {},
}: {
  mode: ContentMode;
  setMode(mode: ContentMode): void;
  templates: Loaded<TemplateView[]>;
  chosenTemplate: string;
  setTemplateId(id: string): void;
  content: InlineContent;
  setContent(content: InlineContent): void;
  children?: ComponentChildren;
  /** By the API's path of each field (/title, /buttons/0/url), in words. */
  errors?: PlacedFields;
}) {
  return (
    <fieldset>
      <legend>Content</legend>
      <Select
        label="Content from"
        name="content-mode"
        value={mode}
        options={children === undefined ? sources.slice(0, 2) : sources}
        onChange={setMode}
      />
      {mode === 'variants' ? (
        children
      ) : mode === 'template' ? (
        <NamedItemSelect
          items={templates}
          loading="Loading templates"
          empty="No template yet: create one on the Templates screen."
          label="Template"
          name="send-template"
          value={chosenTemplate}
          onChange={setTemplateId}
        />
      ) : (
        <>
          <Field
            label="Title"
            name="send-title"
            error={errors['/title']}
            value={content.title}
            onInput={(title) => setContent({ ...content, title })}
          />
          <Field
            label="Body"
            name="send-body"
            error={errors['/body']}
            multiline
            required
            value={content.body}
            onInput={(body) => setContent({ ...content, body })}
            hint="Liquid: {{ device.tags.name }}, {{ device.userId }}, {{ data.x | default: 'y' }}"
          />
          <Field
            label="URL"
            name="send-url"
            error={errors['/url']}
            value={content.url}
            onInput={(url) => setContent({ ...content, url })}
          />
          <Field
            label="Image URL"
            name="send-image"
            error={errors['/imageUrl']}
            value={content.imageUrl}
            onInput={(imageUrl) => setContent({ ...content, imageUrl })}
          />
        </>
      )}
    </fieldset>
  );
}
