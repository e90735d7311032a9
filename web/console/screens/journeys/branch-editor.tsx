import { Field, Select } from '../../fields.tsx';
import { ConditionEditor, segmentEventTypes } from '../segments/condition-editor.tsx';
import { type BranchConditionDraft, type BranchConditionKind, newBranchCondition } from './branch-draft.ts';
import { type EditorProps, errorOn } from './editor-props.ts';
import { TargetSelect } from './target-select.tsx';

const kinds = [
  ['segment', 'A tag or an event'],
  ['clicked', 'A click on a push of this journey'],
  ['converted', 'A conversion'],
] as const;

function BranchCondition({
  condition,
  at,
  pushSteps,
  onChange,
  onRemove,
}: {
  condition: BranchConditionDraft;
  at: number;
  pushSteps: string[];
  onChange(next: BranchConditionDraft): void;
  onRemove(): void;
}) {
  return (
    <div class="branch-condition">
      <Select<BranchConditionKind>
        label={`Condition ${at + 1} is on`}
        name={`step-condition-${at}-kind`}
        value={condition.kind}
        options={kinds}
        onChange={(kind) => onChange(newBranchCondition(kind))}
      />
      {condition.kind === 'segment' ? (
        <ConditionEditor
          condition={condition.condition}
          index={at}
          onChange={(next) => onChange({ kind: 'segment', condition: next })}
          onRemove={onRemove}
        />
      ) : (
        <fieldset class="condition">
          <legend>Condition {at + 1}</legend>
          {condition.kind === 'clicked' ? (
            <Select
              label="Clicked the push of step"
              name={`step-condition-${at}-clicked`}
              value={condition.step}
              options={[['', 'Choose a push step'] as const, ...pushSteps.map((id) => [id, id] as const)]}
              onChange={(step) => onChange({ ...condition, step })}
            />
          ) : (
            <Field
              label="Conversion event"
              name={`step-condition-${at}-converted`}
              list={segmentEventTypes}
              required
              value={condition.event}
              onInput={(event) => onChange({ ...condition, event })}
              hint="Yes when a push of this visit was credited with this event."
            />
          )}
          <button type="button" class="secondary" onClick={onRemove}>
            Remove condition {at + 1}
          </button>
        </fieldset>
      )}
    </div>
  );
}

export function BranchEditor({ step, index, steps, onChange, errors }: EditorProps<'branch'>) {
  const pushSteps = steps.filter((other) => other.type === 'push').map((other) => other.id);
  const setConditions = (conditions: BranchConditionDraft[]) => onChange({ ...step, conditions });
  return (
    <>
      <Select
        label="Yes when the traveller matches"
        name="step-match"
        value={step.match}
        options={
          [
            ['all', 'all conditions'],
            ['any', 'any condition'],
          ] as const
        }
        onChange={(match) => onChange({ ...step, match })}
      />
      {errorOn(errors, 'conditions') && <p class="field-error">{errorOn(errors, 'conditions')}</p>}
      {step.conditions.map((condition, at) => (
        <BranchCondition
          key={at}
          condition={condition}
          at={at}
          pushSteps={pushSteps}
          onChange={(next) => setConditions(step.conditions.map((old, other) => (other === at ? next : old)))}
          onRemove={() => setConditions(step.conditions.filter((_, other) => other !== at))}
        />
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => setConditions([...step.conditions, newBranchCondition('segment')])}
      >
        Add a condition
      </button>
      <div class="sides-fields">
        <TargetSelect
          label="If yes, go to"
          value={step.onTrue}
          steps={steps}
          own={index}
          onChange={(onTrue) => onChange({ ...step, onTrue })}
          error={errorOn(errors, 'onTrue')}
        />
        <TargetSelect
          label="If no, go to"
          value={step.onFalse}
          steps={steps}
          own={index}
          onChange={(onFalse) => onChange({ ...step, onFalse })}
          error={errorOn(errors, 'onFalse')}
        />
      </div>
    </>
  );
}
