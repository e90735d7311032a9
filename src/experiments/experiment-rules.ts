import { invalidRequest, type ErrorDetail } from '../errors.ts';
import type { Models } from '../models/index.ts';
import { readProjectSettings } from '../projects/project-settings.ts';
import type { SendNotificationBody } from '../schemas/notification.ts';
import { contentSyntaxErrors } from '../rendering/message-content.ts';
import { fieldsOf } from '../schemas/validation.ts';
import type { Conversion } from '../schemas/conversions.ts';
import type { Experiment, StoredExperiment, StoredVariant } from '../schemas/experiment.ts';
import { optionContentErrors } from '../rendering/option-content-errors.ts';

/** The send's own fields a variant's content takes the place of, and those an experiment cannot be combined with. */
const replacedByVariants = ['templateId', 'title', 'body', 'url', 'imageUrl', 'buttons', 'localizations'];
const notWithVariants: Record<string, string> = {
  silent: 'cannot be combined with variants, which are content',
};

/**
 * What the schema cannot say of a send's variants and experiment (CONTRACTS §19): each needs the other, the variants'
 * content replaces the send's own, names are unique and each content is valid Liquid. Reads its own fields only, so
 * that it runs beside the schema's errors.
 */
export function experimentRequestErrors(fields: Record<string, unknown>): ErrorDetail[] {
  const { variants, experiment } = fields;
  if (variants === undefined && experiment === undefined) return [];
  if (variants === undefined) return [{ path: '/variants', message: 'is required with experiment' }];
  if (experiment === undefined) return [{ path: '/experiment', message: 'is required with variants' }];
  const details: ErrorDetail[] = [];
  for (const field of replacedByVariants)
    if (fields[field] !== undefined)
      details.push({ path: `/${field}`, message: 'must be absent: each variant has its own content' });
  for (const [field, message] of Object.entries(notWithVariants))
    if (fields[field] !== undefined) details.push({ path: `/${field}`, message });
  if (!Array.isArray(variants)) return details;
  const names = new Set<unknown>();
  for (const [index, variant] of variants.entries()) {
    const { name } = fieldsOf(variant);
    if (names.has(name)) details.push({ path: `/variants/${index}/name`, message: 'is already the name of a variant' });
    names.add(name);
    const own = fieldsOf(variant);
    const prefix = `/variants/${index}`;
    if (own.templateId === undefined) details.push(...contentSyntaxErrors(own, prefix));
    details.push(...optionContentErrors(own).map((detail) => ({ ...detail, path: prefix + detail.path })));
  }
  return details;
}

/** A conversion metric must name one of the project's conversion events, which alone are counted per push. */
export function experimentMetricErrors(experiment: Experiment, conversions: Conversion[]): ErrorDetail[] {
  if (!experiment.metric.startsWith('conversion:')) return [];
  const event = experiment.metric.slice('conversion:'.length);
  if (conversions.some((conversion) => conversion.event === event)) return [];
  return [{ path: '/experiment/metric', message: `names "${event}", which is not one of the project's conversions` }];
}

/** The experiment as stored: its defaults filled in, testing. */
export function storedExperiment(experiment: Experiment): StoredExperiment {
  return {
    testPercent: experiment.testPercent ?? 100,
    metric: experiment.metric,
    decideAfterMinutes: experiment.decideAfterMinutes,
    mode: experiment.winner,
    ifNoWinner: experiment.ifNoWinner ?? 'sendBest',
    status: 'testing',
  };
}

/**
 * The send's variants and experiment as its notification stores them, none without; a metric naming no conversion
 * of the project is a 400.
 */
export async function experimentFields(
  models: Models,
  projectId: string,
  body: Pick<SendNotificationBody, 'experiment'>,
  variants: StoredVariant[] | undefined,
): Promise<{ variants?: StoredVariant[]; experiment?: StoredExperiment }> {
  if (variants === undefined || body.experiment === undefined) return {};
  const conversions = (await readProjectSettings(models, projectId))?.conversions ?? [];
  const errors = experimentMetricErrors(body.experiment, conversions);
  if (errors.length > 0) throw invalidRequest('The experiment is not valid; see details for each field.', errors);
  return { variants, experiment: storedExperiment(body.experiment) };
}
