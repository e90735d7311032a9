import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { Field, NamedItemSelect, Select } from '../../fields.tsx';

export type ContentMode = 'template' | 'inline';
export const blankContent = { title: '', body: '', url: '', imageUrl: '' };
export type InlineContent = typeof blankContent;

/** The message's content: a template chosen, or a title, body, URL and image typed. */
export function ContentFields({
  mode,
  setMode,
  templates,
  chosenTemplate,
  setTemplateId,
  content,
  setContent,
}: {
  mode: ContentMode;
  setMode(mode: ContentMode): void;
  templates: Loaded<TemplateView[]>;
  chosenTemplate: string;
  setTemplateId(id: string): void;
  content: InlineContent;
  setContent(content: InlineContent): void;
}) {
  return (
    <fieldset>
      <legend>Content</legend>
      <Select
        label="Content from"
        name="content-mode"
        value={mode}
        options={
          [
            ['inline', 'Inline content'],
            ['template', 'A template'],
          ] as const
        }
        onChange={setMode}
      />
      {mode === 'template' ? (
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
            value={content.title}
            onInput={(title) => setContent({ ...content, title })}
          />
          <Field
            label="Body"
            name="send-body"
            multiline
            required
            value={content.body}
            onInput={(body) => setContent({ ...content, body })}
            hint="Liquid: {{ device.tags.name }}, {{ device.userId }}, {{ data.x | default: 'y' }}"
          />
          <Field label="URL" name="send-url" value={content.url} onInput={(url) => setContent({ ...content, url })} />
          <Field
            label="Image URL"
            name="send-image"
            value={content.imageUrl}
            onInput={(imageUrl) => setContent({ ...content, imageUrl })}
          />
        </>
      )}
    </fieldset>
  );
}
