import type { SendNotificationBody } from '../../../../src/schemas/notification.ts';
import type { FieldRule } from '../../field-errors.ts';
import { blankContent, typedContent, type InlineContent } from './content-fields.tsx';

/** CONTRACTS §19: an experiment compares 2 to 10 variants. */
export const minVariants = 2;
export const maxVariants = 10;

export type VariantDraft = InlineContent & { name: string };

/** The send screen's variants and experiment settings as typed. */
export interface ExperimentDraft {
  variants: VariantDraft[];
  testPercent: string;
  metric: string;
  decideAfter: string;
  decideUnit: 'minutes' | 'hours';
  winner: 'auto' | 'manual';
  ifNoWinner: 'sendBest' | 'sendNone';
}

export const blankVariant = (index: number): VariantDraft => ({
  ...blankContent,
  name: String.fromCharCode(65 + index),
});

export const blankExperiment: ExperimentDraft = {
  variants: [blankVariant(0), blankVariant(1)],
  testPercent: '20',
  metric: 'clicked',
  decideAfter: '4',
  decideUnit: 'hours',
  winner: 'auto',
  ifNoWinner: 'sendBest',
};

/** A whole number typed, else NaN, which the API names on its field rather than the console guessing. */
const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** The request's variants and experiment, in place of the send's own content. */
export function experimentFields(draft: ExperimentDraft): Pick<SendNotificationBody, 'variants' | 'experiment'> {
  const after = whole(draft.decideAfter);
  return {
    variants: draft.variants.map(({ name, ...content }) => ({ name, ...typedContent(content) })),
    experiment: {
      testPercent: whole(draft.testPercent),
      metric: draft.metric,
      decideAfterMinutes: draft.decideUnit === 'hours' ? after * 60 : after,
      winner: draft.winner,
      ...(draft.winner === 'auto' && { ifNoWinner: draft.ifNoWinner }),
    },
  };
}

export type ExperimentField =
  | `variant-${number}-${'name' | 'title' | 'body' | 'url' | 'imageUrl'}`
  | 'variants'
  | 'testPercent'
  | 'metric'
  | 'decideAfter';

const variantRules = (index: number): FieldRule<ExperimentField>[] => [
  {
    path: `/variants/${index}/name`,
    field: `variant-${index}-name`,
    sentence: 'Give each variant a name of 1 to 32 characters, different from the others.',
  },
  {
    path: `/variants/${index}/body`,
    field: `variant-${index}-body`,
    sentence: "Write this variant's message; any {{ }} in it must be complete.",
  },
  ...(['title', 'url', 'imageUrl'] as const).map((field) => ({
    path: `/variants/${index}/${field}`,
    field: `variant-${index}-${field}` as const,
    sentence: 'This is too long, or a {{ }} in it is incomplete.',
  })),
];

/** Where the API's errors about the variants and the experiment belong, for the variants on screen. */
export const experimentErrorRules = (variantCount: number): FieldRule<ExperimentField>[] => [
  ...Array.from({ length: variantCount }, (_, index) => variantRules(index)).flat(),
  { path: '/variants', field: 'variants', sentence: `Compare ${minVariants} to ${maxVariants} variants.` },
  { path: '/experiment/testPercent', field: 'testPercent', sentence: 'Give a whole percentage from 1 to 100.' },
  {
    path: '/experiment/metric',
    field: 'metric',
    sentence: "Measure by clicks or by one of the project's conversions (set them on the Project screen).",
  },
  {
    path: '/experiment/decideAfterMinutes',
    field: 'decideAfter',
    sentence: 'Decide after a whole number of minutes or hours, from 1 minute to 3 days.',
  },
];
