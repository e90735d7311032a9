import { Field } from '../../fields.tsx';
import type { LanguageDraft } from './options-draft.ts';

/**
 * The message in other languages (CONTRACTS §14): a device whose language is one of these (or its primary language,
 * pt-BR → pt) gets that title and body; others get the message's own.
 */
export function LanguageFields({
  languages,
  setLanguages,
}: {
  languages: LanguageDraft[];
  setLanguages(languages: LanguageDraft[]): void;
}) {
  const change = (index: number, changes: Partial<LanguageDraft>) =>
    setLanguages(languages.map((language, at) => (at === index ? { ...language, ...changes } : language)));
  return (
    <fieldset>
      <legend>Languages</legend>
      {languages.map((language, index) => (
        <fieldset key={index}>
          <legend>{language.tag || `Language ${index + 1}`}</legend>
          <Field
            label={`Language ${index + 1} tag`}
            name={`language-${index}-tag`}
            value={language.tag}
            onInput={(tag) => change(index, { tag })}
            hint="BCP 47, such as ko or pt-BR."
          />
          <Field
            label={`Language ${index + 1} title`}
            name={`language-${index}-title`}
            value={language.title}
            onInput={(title) => change(index, { title })}
          />
          <Field
            label={`Language ${index + 1} body`}
            name={`language-${index}-body`}
            multiline
            value={language.body}
            onInput={(body) => change(index, { body })}
          />
          <button
            type="button"
            class="secondary"
            onClick={() => setLanguages(languages.filter((_, at) => at !== index))}
          >
            Remove {language.tag || `language ${index + 1}`}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => setLanguages([...languages, { tag: '', title: '', body: '' }])}
      >
        Add a language
      </button>
    </fieldset>
  );
}
