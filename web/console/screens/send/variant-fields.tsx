import { Field } from '../../fields.tsx';
import { blankVariant, maxVariants, minVariants, type ExperimentField, type VariantDraft } from './experiment-draft.ts';

/** The wordings an experiment compares (2 to 10), each a name and its own title, body, URL and image. */
export function VariantFields({
  variants,
  setVariants,
  errors,
}: {
  variants: VariantDraft[];
  setVariants(variants: VariantDraft[]): void;
  errors: Partial<Record<ExperimentField, string>>;
}) {
  const setVariant = (index: number, changes: Partial<VariantDraft>) =>
    setVariants(variants.map((variant, at) => (at === index ? { ...variant, ...changes } : variant)));
  return (
    <>
      {variants.map((variant, index) => {
        const field = (name: keyof VariantDraft, label: string, hint?: string) => (
          <Field
            label={label}
            name={`variant-${index}-${name}`}
            value={variant[name]}
            multiline={name === 'body'}
            hint={hint}
            onInput={(text) => setVariant(index, { [name]: text })}
            error={errors[`variant-${index}-${name}`]}
          />
        );
        return (
          <fieldset key={index} data-variant={index}>
            <legend>Variant {index + 1}</legend>
            {field('name', 'Name', 'Shown on the results, 1 to 32 characters')}
            {field('title', 'Title')}
            {field('body', 'Body', 'Liquid: {{ device.tags.name }}')}
            {field('url', 'URL')}
            {field('imageUrl', 'Image URL')}
            {variants.length > minVariants && (
              <button
                type="button"
                class="secondary"
                onClick={() => setVariants(variants.filter((_, at) => at !== index))}
              >
                Remove variant {index + 1}
              </button>
            )}
          </fieldset>
        );
      })}
      {errors.variants && <p class="field-error">{errors.variants}</p>}
      {variants.length < maxVariants && (
        <button
          type="button"
          class="secondary"
          onClick={() => setVariants([...variants, blankVariant(variants.length)])}
        >
          Add a variant
        </button>
      )}
    </>
  );
}
