import type { ApiFailure } from './api.ts';

/** Where an API error detail belongs on a form: the detail's path (or its start), the field, and what to say there. */
export interface FieldRule<F extends string> {
  path: string;
  field: F;
  sentence: string;
}

/**
 * The API's errors placed on the fields they are about, each in a sentence a marketer reads (never the API's path or
 * a JSON shape); what no rule places stays as the error at the top.
 */
export function placeErrors<F extends string>(
  error: ApiFailure | undefined,
  rules: FieldRule<F>[],
): { fields: Partial<Record<F, string>>; unplaced: ApiFailure | undefined } {
  const fields: Partial<Record<F, string>> = {};
  if (error === undefined) return { fields, unplaced: undefined };
  const left = error.details.filter((detail) => {
    const rule = rules.find(
      (candidate) => detail.path === candidate.path || detail.path.startsWith(`${candidate.path}/`),
    );
    if (rule) fields[rule.field] = rule.sentence;
    return rule === undefined;
  });
  const placedAll = error.details.length > 0 && left.length === 0;
  return { fields, unplaced: placedAll ? undefined : error };
}
