import type { ErrorDetail } from '../errors.ts';
import { conditionOps, type ConditionOp, type EventDataCondition } from '../schemas/event-conditions.ts';
import { maxTagValueLength } from '../schemas/tags.ts';
import { characterCount } from '../schemas/characters.ts';
import { isUnstorableTime, unstorableTimeMessage } from '../schemas/iso-time.ts';

export const maxConditionListItems = 100;

type Scalar = 'string' | 'number' | 'boolean' | 'null';

const scalarKind = (value: unknown): Scalar | null => {
  if (value === null) return 'null';
  if (typeof value === 'string') return characterCount(value) <= maxTagValueLength ? 'string' : null;
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : null;
  if (typeof value === 'boolean') return 'boolean';
  return null;
};

const describe = (kinds: readonly Scalar[]) =>
  kinds
    .map((kind) =>
      kind === 'string'
        ? `a string of at most ${maxTagValueLength} characters`
        : kind === 'number'
          ? 'a finite number'
          : kind,
    )
    .join(', ');

/** Which values an operator takes: tags hold strings and numbers; event data also booleans and null. */
function valueProblem(op: ConditionOp, value: unknown, hasValue: boolean, equality: readonly Scalar[]): string | null {
  if (op === 'exists' || op === 'notExists') return hasValue ? `must not be given with op ${op}` : null;
  if (!hasValue) return `is required with op ${op}`;
  const ordered: readonly Scalar[] = ['string', 'number'];
  if (op === 'in' || op === 'nin') {
    if (!Array.isArray(value) || value.length < 1 || value.length > maxConditionListItems)
      return `must be an array of 1 to ${maxConditionListItems} values with op ${op}`;
    return value.every((item) => equality.includes(scalarKind(item)!))
      ? null
      : `must hold only ${describe(equality)} values`;
  }
  const allowed = op === 'eq' || op === 'ne' ? equality : ordered;
  return allowed.includes(scalarKind(value)!) ? null : `must be ${describe(allowed)} with op ${op}`;
}

export function tagValueErrors(condition: { op: ConditionOp; value?: unknown }, path: string): ErrorDetail[] {
  const problem = valueProblem(condition.op, condition.value, 'value' in condition, ['string', 'number']);
  return problem === null ? [] : [{ path: `${path}/value`, message: problem }];
}

const isDataCondition = (condition: unknown): condition is EventDataCondition =>
  typeof condition === 'object' &&
  condition !== null &&
  conditionOps.includes((condition as { op?: unknown }).op as ConditionOp);

/** Also read on a body that failed its schema: what is not a condition with a known op, the schema names. */
export function whereValueErrors(where: unknown[], path: string): ErrorDetail[] {
  return where.flatMap((condition, index) => {
    if (!isDataCondition(condition)) return [];
    const values: unknown[] = Array.isArray(condition.value) ? condition.value : [condition.value];
    const problem =
      valueProblem(condition.op, condition.value, 'value' in condition, ['string', 'number', 'boolean', 'null']) ??
      (values.some(isUnstorableTime) ? unstorableTimeMessage : null);
    return problem === null ? [] : [{ path: `${path}/${index}/value`, message: problem }];
  });
}
