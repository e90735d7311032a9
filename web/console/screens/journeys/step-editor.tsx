import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { Field } from '../../fields.tsx';
import { BranchEditor } from './branch-editor.tsx';
import { type EditorProps, errorOn } from './editor-props.ts';
import { PushEditor } from './push-editor.tsx';
import { SetTagsEditor } from './set-tags-editor.tsx';
import { SplitEditor } from './split-editor.tsx';
import { routesItself, type StepDraft } from './step-draft.ts';
import { TargetSelect } from './target-select.tsx';
import { WaitEditor, WaitForEventEditor } from './wait-editors.tsx';

function TypeFields(props: EditorProps<StepDraft['type']> & { templates: Loaded<TemplateView[]> }) {
  const { step } = props;
  // Each editor takes its own type's step: the switch narrows it, the casts only restate that to the compiler.
  switch (step.type) {
    case 'wait':
      return <WaitEditor {...(props as EditorProps<'wait'>)} />;
    case 'waitForEvent':
      return <WaitForEventEditor {...(props as EditorProps<'waitForEvent'>)} />;
    case 'branch':
      return <BranchEditor {...(props as EditorProps<'branch'>)} />;
    case 'split':
      return <SplitEditor {...(props as EditorProps<'split'>)} />;
    case 'push':
      return <PushEditor {...(props as EditorProps<'push'>)} templates={props.templates} />;
    case 'setTags':
      return <SetTagsEditor {...(props as EditorProps<'setTags'>)} />;
    default:
      return (
        <p class="muted hint">
          Publishes a journey.step event to the project's webhooks that listen for it, with the traveller and the event
          that entered it.
        </p>
      );
  }
}

/** A step's fields: its name, its type's own, and where it goes next when it does not route by itself. */
export function StepEditor(
  props: EditorProps<StepDraft['type']> & { templates: Loaded<TemplateView[]>; onDone(): void },
) {
  const { step, index, steps, onChange, errors, onDone } = props;
  return (
    <div class="step-editor">
      <Field
        label="Step name"
        name="step-id"
        required
        value={step.id}
        onInput={(id) => onChange({ ...step, id })}
        error={errorOn(errors, 'id')}
        hint="Letters, digits, _ and -; the counts and the traveller lookup name the step by it."
      />
      <TypeFields {...props} />
      {!routesItself(step) && (
        <TargetSelect
          label="Then go to"
          value={step.next}
          steps={steps}
          own={index}
          withFollowing
          onChange={(next) => onChange({ ...step, next })}
          error={errorOn(errors, 'next')}
        />
      )}
      <button type="button" class="secondary" onClick={onDone}>
        Done with step {index + 1}
      </button>
    </div>
  );
}
