import type { ProjectView } from '../../../../src/schemas/project.ts';
import { api } from '../../api.ts';
import { useProject } from '../../context.ts';
import { Field, Select } from '../../fields.tsx';
import { useLoad } from '../../hooks.ts';
import type { ExperimentDraft, ExperimentField } from './experiment-draft.ts';

const winnerChoices = [
  ['auto', 'Automatically: the best rate, when the difference is clear'],
  ['manual', "By hand, on the notification's page"],
] as const;

const ifNoWinnerChoices = [
  ['sendBest', 'Send the best variant anyway'],
  ['sendNone', 'Send nothing more'],
] as const;

const unitChoices = [
  ['minutes', 'minutes'],
  ['hours', 'hours'],
] as const;

/**
 * How the experiment runs (CONTRACTS §19): the share of the audience tested, what is measured (clicks or one of the
 * project's conversions, read as they stand now), when and how the winner is chosen, and what happens without one.
 */
export function ExperimentSettings({
  draft,
  setDraft,
  errors,
}: {
  draft: ExperimentDraft;
  setDraft(draft: ExperimentDraft): void;
  errors: Partial<Record<ExperimentField, string>>;
}) {
  const { base } = useProject();
  const project = useLoad(() => api<ProjectView>('GET', base), [base]);
  const set = (changes: Partial<ExperimentDraft>) => setDraft({ ...draft, ...changes });
  const metrics: Array<readonly [string, string]> = [
    ['clicked', 'Clicks'],
    ...(project.data?.conversions ?? []).map(({ event }) => [`conversion:${event}`, `Conversions: ${event}`] as const),
  ];
  // A metric chosen before the conversions were read stays a choice until they are.
  if (!metrics.some(([metric]) => metric === draft.metric)) metrics.push([draft.metric, draft.metric]);
  return (
    <fieldset>
      <legend>Experiment</legend>
      <Field
        label="Test share (%)"
        name="experiment-test-percent"
        type="number"
        value={draft.testPercent}
        onInput={(testPercent) => set({ testPercent })}
        hint="The share of the audience that gets a variant, split evenly; the rest waits for the winner. 100: everyone gets a variant."
        error={errors.testPercent}
      />
      <Select
        label="Measured by"
        name="experiment-metric"
        value={draft.metric}
        options={metrics}
        onChange={(metric) => set({ metric })}
      />
      {errors.metric && <p class="field-error">{errors.metric}</p>}
      <Field
        label="Decide after"
        name="experiment-decide-after"
        type="number"
        value={draft.decideAfter}
        onInput={(decideAfter) => set({ decideAfter })}
        hint="1 minute to 3 days after the test went out"
        error={errors.decideAfter}
      />
      <Select
        label="Unit"
        name="experiment-decide-unit"
        value={draft.decideUnit}
        options={unitChoices}
        onChange={(decideUnit) => set({ decideUnit })}
      />
      <Select
        label="Winner chosen"
        name="experiment-winner"
        value={draft.winner}
        options={winnerChoices}
        onChange={(winner) => set({ winner })}
      />
      {draft.winner === 'auto' && (
        <Select
          label="If no variant is clearly better"
          name="experiment-if-no-winner"
          value={draft.ifNoWinner}
          options={ifNoWinnerChoices}
          onChange={(ifNoWinner) => set({ ifNoWinner })}
        />
      )}
    </fieldset>
  );
}
