import { Field } from '../../fields.tsx';
import { type EditorProps, errorOn } from './editor-props.ts';
import { exitTarget } from './flow-layout.ts';
import type { SplitPathDraft } from './step-draft.ts';
import { TargetSelect } from './target-select.tsx';

const maxPaths = 10;

export function SplitEditor({ step, index, steps, onChange, errors }: EditorProps<'split'>) {
  const setPath = (at: number, changes: Partial<SplitPathDraft>) =>
    onChange({ ...step, paths: step.paths.map((path, other) => (other === at ? { ...path, ...changes } : path)) });
  const total = step.paths.reduce((sum, path) => sum + (Number(path.percent) || 0), 0);
  return (
    <>
      <p class={total === 100 ? 'muted' : 'field-error'}>
        Each traveller takes one path at random; the percents add up to {total} of 100.
      </p>
      {errorOn(errors, 'paths') && <p class="field-error">{errorOn(errors, 'paths')}</p>}
      <div class="sides-fields">
        {step.paths.map((path, at) => (
          <fieldset key={at}>
            <legend>Path {at + 1}</legend>
            <Field
              label={`Path ${at + 1} name`}
              name={`step-path-${at}-name`}
              required
              value={path.name}
              onInput={(name) => setPath(at, { name })}
            />
            <Field
              label={`Path ${at + 1} percent`}
              name={`step-path-${at}-percent`}
              type="number"
              required
              value={path.percent}
              onInput={(percent) => setPath(at, { percent })}
            />
            <TargetSelect
              label={`Path ${at + 1} goes to`}
              value={path.next}
              steps={steps}
              own={index}
              onChange={(next) => setPath(at, { next })}
            />
            {step.paths.length > 2 && (
              <button
                type="button"
                class="secondary"
                onClick={() => onChange({ ...step, paths: step.paths.filter((_, other) => other !== at) })}
              >
                Remove path {at + 1}
              </button>
            )}
          </fieldset>
        ))}
      </div>
      {step.paths.length < maxPaths && (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            onChange({
              ...step,
              paths: [...step.paths, { name: `Path ${step.paths.length + 1}`, percent: '0', next: exitTarget }],
            })
          }
        >
          Add a path
        </button>
      )}
    </>
  );
}
