import { Field } from '../../fields.tsx';
import { DataConditions } from '../data-conditions.tsx';
import { segmentEventTypes } from '../segments/condition-editor.tsx';
import type { StepError } from './journey-errors.ts';
import { errorOn } from './editor-props.ts';
import type { ExitRuleDraft } from './journey-draft.ts';

/** The events that take a traveller out at once, each with its data conditions and the fields it shares with entry. */
export function ExitRules({
  rules,
  onChange,
  errors,
}: {
  rules: ExitRuleDraft[];
  onChange(rules: ExitRuleDraft[]): void;
  errors: Map<number, StepError[]>;
}) {
  const setRule = (at: number, changes: Partial<ExitRuleDraft>) =>
    onChange(rules.map((rule, other) => (other === at ? { ...rule, ...changes } : rule)));
  return (
    <>
      {rules.map((rule, at) => {
        const ruleErrors = errors.get(at) ?? [];
        const label = `Exit rule ${at + 1}`;
        return (
          <fieldset key={at}>
            <legend>{label}</legend>
            <Field
              label={`${label}: leaves on the event`}
              name={`journey-exit-${at}-event`}
              list={segmentEventTypes}
              required
              value={rule.event}
              onInput={(event) => setRule(at, { event })}
              error={errorOn(ruleErrors, 'event') ?? errorOn(ruleErrors, '')}
              hint="At once, wherever the traveller is, waits included."
            />
            <DataConditions
              where={rule.where}
              onChange={(where) => setRule(at, { where })}
              name={(field) => `journey-exit-${at}-${field}`}
              legend={(condition) => `${label}, data condition ${condition + 1}`}
              addLabel={`${label}: add a condition on the event's data`}
              errors={ruleErrors.filter((error) => error.field === 'where')}
            />
            <Field
              label={`${label}: same values as the entry event`}
              name={`journey-exit-${at}-same-as`}
              value={rule.sameAs}
              onInput={(sameAs) => setRule(at, { sameAs })}
              error={errorOn(ruleErrors, 'sameAs')}
              hint="Data fields, comma-separated: orderId leaves only on the event about the same order."
            />
            <button type="button" class="secondary" onClick={() => onChange(rules.filter((_, other) => other !== at))}>
              Remove exit rule {at + 1}
            </button>
          </fieldset>
        );
      })}
      <div class="exit-rules">
        <button
          type="button"
          class="secondary"
          onClick={() => onChange([...rules, { event: '', sameAs: '', where: [] }])}
        >
          Add an exit rule
        </button>
      </div>
    </>
  );
}
