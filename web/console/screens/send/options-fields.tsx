import { Checkbox, Field, Select } from '../../fields.tsx';
import { Advanced } from '../../layout.tsx';
import type { PlacedFields } from '../../field-errors.ts';
import { type OptionsDraft, platformNames } from './options-draft.ts';

const maxButtons = 2;

/**
 * How the push is delivered (CONTRACTS §14): buttons, badge and sound, platforms, silent; priority, TTL and collapse id
 * under Advanced.
 */
export function OptionsFields({
  draft,
  setDraft,
  errors = {},
}: {
  draft: OptionsDraft;
  setDraft(draft: OptionsDraft): void;
  /** By the API's path of each field (/title, /buttons/0/url), in words. */
  errors?: PlacedFields;
}) {
  const set = (changes: Partial<OptionsDraft>) => setDraft({ ...draft, ...changes });
  const setButton = (index: number, changes: Partial<OptionsDraft['buttons'][number]>) =>
    set({ buttons: draft.buttons.map((button, at) => (at === index ? { ...button, ...changes } : button)) });
  return (
    <fieldset>
      <legend>Options</legend>
      <Field label="Badge" name="option-badge" type="number" value={draft.badge} onInput={(badge) => set({ badge })} />
      <Field label="Sound" name="option-sound" value={draft.sound} onInput={(sound) => set({ sound })} />
      <fieldset>
        <legend>Platforms</legend>
        {platformNames.map((platform) => (
          <Checkbox
            key={platform}
            label={platform}
            name={`option-platform-${platform}`}
            checked={draft.platforms.includes(platform)}
            onChange={(checked) =>
              set({
                platforms: checked
                  ? platformNames.filter((name) => name === platform || draft.platforms.includes(name))
                  : draft.platforms.filter((name) => name !== platform),
              })
            }
          />
        ))}
      </fieldset>
      <Checkbox
        label="Silent push"
        name="option-silent"
        checked={draft.silent}
        onChange={(silent) => set({ silent })}
      />
      <p class="muted hint">
        A background data push that shows nothing: its content is not sent, and browsers are not targeted.
      </p>
      {draft.buttons.map((button, index) => (
        <fieldset key={index}>
          <legend>Button {index + 1}</legend>
          <Field
            label={`Button ${index + 1} text`}
            name={`button-${index}-text`}
            error={errors[`/buttons/${index}/text`]}
            value={button.text}
            onInput={(text) => setButton(index, { text })}
          />
          <Field
            label="URL"
            name={`button-${index}-url`}
            error={errors[`/buttons/${index}/url`]}
            value={button.url}
            onInput={(url) => setButton(index, { url })}
          />
          {/* The id names the button in the app's callbacks: set for it, there for an engineer. */}
          <Advanced open={errors[`/buttons/${index}/id`] !== undefined || undefined}>
            <Field
              label={`Button ${index + 1} id`}
              name={`button-${index}-id`}
              error={errors[`/buttons/${index}/id`]}
              value={button.id}
              onInput={(id) => setButton(index, { id })}
            />
          </Advanced>
          <button
            type="button"
            class="secondary"
            onClick={() => set({ buttons: draft.buttons.filter((_, at) => at !== index) })}
          >
            Remove button {index + 1}
          </button>
        </fieldset>
      ))}
      {draft.buttons.length < maxButtons && (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            set({ buttons: [...draft.buttons, { id: `button-${draft.buttons.length + 1}`, text: '', url: '' }] })
          }
        >
          Add a button
        </button>
      )}
      <Advanced>
        <Select
          label="Priority"
          name="option-priority"
          value={draft.priority}
          options={
            [
              ['', 'Default (high)'],
              ['high', 'High'],
              ['normal', 'Normal'],
            ] as const
          }
          onChange={(priority) => set({ priority })}
        />
        <Field
          label="TTL (seconds)"
          name="option-ttl"
          type="number"
          value={draft.ttl}
          onInput={(ttl) => set({ ttl })}
          hint="0 to 2,419,200 (28 days, the default). 0: delivered now or never."
        />
        <Field
          label="Collapse id"
          name="option-collapse-id"
          value={draft.collapseId}
          onInput={(collapseId) => set({ collapseId })}
          hint="A newer push with the same collapse id replaces an older one on the device."
        />
      </Advanced>
    </fieldset>
  );
}
