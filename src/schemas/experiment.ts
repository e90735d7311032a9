import { Type, type Static } from 'typebox';
import { Id, Text } from './text.ts';
import { contentOptionFields, type MessageButton, type Localization } from './message-options.ts';
import { notBlank } from './common.ts';

export const minVariants = 2;
export const maxVariants = 10;
export const maxDecideAfterMinutes = 4320;
export const experimentStatuses = ['testing', 'sending_winner', 'completed'] as const;
export type ExperimentStatus = (typeof experimentStatuses)[number];

/**
 * One wording of a send under test (CONTRACTS §19): a name unique in the send, and its content as a send's (a template,
 * or a body with the rest, and buttons and languages).
 */
export const Variant = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 32, errorMessage: 'must be a name of 1 to 32 characters' }),
    templateId: Type.Optional(Id(128)),
    title: Type.Optional(Text(1024)),
    body: Type.Optional(Text(4096)),
    url: Type.Optional(Text(2048)),
    imageUrl: Type.Optional(Text(2048)),
    ...contentOptionFields,
  },
  {
    additionalProperties: false,
    allOf: [
      {
        if: { not: { required: ['templateId'] } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        then: {
          required: ['body'],
          properties: { body: notBlank },
          errorMessage: 'is required unless templateId is given',
        },
      },
    ],
  },
);
export type Variant = Static<typeof Variant>;

/** A variant as the notification keeps it: a template's content, buttons and languages copied in, as a send's are. */
export interface StoredVariant {
  name: string;
  templateId?: string;
  title: string | null;
  body: string;
  url: string | null;
  imageUrl: string | null;
  buttons?: MessageButton[];
  localizations?: Record<string, Localization>;
}

export const Variants = Type.Array(Variant, {
  minItems: minVariants,
  maxItems: maxVariants,
  errorMessage: `must be a list of ${minVariants} to ${maxVariants} variants`,
});

export const Experiment = Type.Object(
  {
    testPercent: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, errorMessage: 'must be a whole percentage from 1 to 100' }),
    ),
    metric: Type.String({
      pattern: '^(clicked|conversion:.+)$',
      errorMessage: 'must be "clicked" or "conversion:<event>"',
    }),
    decideAfterMinutes: Type.Integer({
      minimum: 1,
      maximum: maxDecideAfterMinutes,
      errorMessage: `must be a whole number of minutes from 1 to ${maxDecideAfterMinutes}`,
    }),
    winner: Type.Enum(['auto', 'manual'], { errorMessage: 'must be auto or manual' }),
    ifNoWinner: Type.Optional(Type.Enum(['sendBest', 'sendNone'], { errorMessage: 'must be sendBest or sendNone' })),
  },
  { additionalProperties: false },
);
export type Experiment = Static<typeof Experiment>;

/** As the notification stores it: the request's settings with their defaults, then the decision once taken. */
export interface StoredExperiment {
  testPercent: number;
  metric: string;
  decideAfterMinutes: number;
  mode: 'auto' | 'manual';
  ifNoWinner: 'sendBest' | 'sendNone';
  status: ExperimentStatus;
  winner?: string;
  pValue?: number;
  decidedAt?: Date;
  decidedBy?: 'auto' | 'manual';
}

export const VariantStats = Type.Object({
  targeted: Type.Integer(),
  sent: Type.Integer(),
  failed: Type.Integer(),
  clicked: Type.Integer(),
  conversions: Type.Record(Type.String(), Type.Object({ count: Type.Integer(), value: Type.Number() })),
});

export const ExperimentView = Type.Object({
  status: Type.Enum(experimentStatuses),
  testPercent: Type.Integer(),
  metric: Type.String(),
  winner: Type.Optional(Type.String()),
  pValue: Type.Optional(Type.Number()),
  decidedAt: Type.Optional(Type.String()),
  decidedBy: Type.Optional(Type.Enum(['auto', 'manual'])),
});

export const VariantView = Type.Object({ name: Type.String(), stats: VariantStats });

export const PickWinnerBody = Type.Object(
  { variant: Type.String({ minLength: 1, maxLength: 32, errorMessage: 'must be the name of one of the variants' }) },
  { additionalProperties: false },
);
export type PickWinnerBody = Static<typeof PickWinnerBody>;
