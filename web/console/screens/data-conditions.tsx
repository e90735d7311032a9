import { ComparisonFields } from './segments/comparison-fields.tsx';
import { type DraftComparison, newComparison } from './segments/draft.ts';

/**
 * Conditions on an event's data (CONTRACTS §7 `where`), all of which an event must meet: each a data field, an
 * operator and a value. `name` gives each field its form name, `legend` each condition its heading.
 */
export function DataConditions({
  where,
  onChange,
  name,
  legend,
  addLabel,
  errors = [],
}: {
  where: DraftComparison[];
  onChange(next: DraftComparison[]): void;
  name(field: string): string;
  legend(at: number): string;
  addLabel: string;
  /** The API's errors on these conditions, by the path past `where` (`['0', 'value']`), in words. */
  errors?: Array<{ within: string[]; sentence: string }>;
}) {
  const on = (at: string | undefined) =>
    errors
      .filter((error) => error.within[0] === at)
      .map((error) => (
        <p key={error.sentence} class="field-error">
          {error.sentence}
        </p>
      ));
  return (
    <>
      {on(undefined)}
      {where.map((comparison, at) => (
        <fieldset key={at} class="condition">
          <legend>{legend(at)}</legend>
          {on(String(at))}
          <ComparisonFields
            keyLabel="Data field"
            timesAs="iso"
            comparison={comparison}
            name={(field) => name(`where-${at}-${field}`)}
            onChange={(next) => onChange(where.map((old, other) => (other === at ? next : old)))}
          />
          <button type="button" class="secondary" onClick={() => onChange(where.filter((_, other) => other !== at))}>
            Remove {legend(at).toLowerCase()}
          </button>
        </fieldset>
      ))}
      <button type="button" class="secondary" onClick={() => onChange([...where, newComparison()])}>
        {addLabel}
      </button>
    </>
  );
}
