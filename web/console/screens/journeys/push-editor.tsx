import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { ContentFields } from '../send/content-fields.tsx';
import { DeliveryFields } from '../send/delivery-fields.tsx';
import { LanguageFields } from '../send/language-fields.tsx';
import { OptionsFields } from '../send/options-fields.tsx';
import type { EditorProps } from './editor-props.ts';
import type { PushDraft } from './push-draft.ts';

/** A push step's content and options, in the send screen's own sections. */
export function PushEditor({ step, onChange, templates }: EditorProps<'push'> & { templates: Loaded<TemplateView[]> }) {
  const set = (changes: Partial<PushDraft>) => onChange({ ...step, push: { ...step.push, ...changes } });
  const { push } = step;
  return (
    <>
      <ContentFields
        mode={push.mode}
        setMode={(mode) => set({ mode, templateId: push.templateId || templates.data?.[0]?.id || '' })}
        templates={templates}
        chosenTemplate={push.templateId || templates.data?.[0]?.id || ''}
        setTemplateId={(templateId) => set({ templateId })}
        content={push.content}
        setContent={(content) => set({ content })}
      />
      <p class="muted hint">{'{{ entry_event.data.x }}'} reads the data of the event that entered the traveller.</p>
      <LanguageFields
        languages={push.options.languages}
        setLanguages={(languages) => set({ options: { ...push.options, languages } })}
      />
      <OptionsFields draft={push.options} setDraft={(options) => set({ options })} />
      <DeliveryFields value={push.delivery} onChange={(delivery) => set({ delivery })} />
    </>
  );
}
