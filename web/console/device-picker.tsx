import { useState } from 'preact/hooks';
import type { DeviceListItem } from '../../src/schemas/device-list.ts';
import { api, query } from './api.ts';
import { useProject } from './context.ts';
import { Field, Select } from './fields.tsx';
import { useDebounced, useLoad } from './hooks.ts';
import { TagSuggestions, tagKeysList, tagValuesList } from './pickers.tsx';
import { ErrorMessage } from './ui.tsx';
import { platformWords } from './words.ts';

type FindBy = 'id' | 'user' | 'tag';
const shown = 8;

/** The filters of GET /devices for what was typed; nothing typed lists the newest devices. */
function searchOf(by: FindBy, text: string, tagKey: string): Record<string, string | number | undefined> {
  const term = text.trim();
  if (by === 'tag' && tagKey.trim() !== '') return { tag: tagKey.trim(), value: term || undefined, limit: shown };
  if (term === '') return { order: 'newest', limit: shown };
  return by === 'user' ? { userId: term, limit: shown } : { idPrefix: term, limit: shown };
}

/** Which phone it is, in a marketer's words: platform, language and user. */
function describe(device: DeviceListItem): string {
  return [
    platformWords[device.platform],
    device.language ? `language ${device.language}` : 'language unknown',
    device.userId === null ? 'no user id' : `user ${device.userId}`,
  ].join(' · ');
}

/**
 * A device picked from the project's own, found by the start of its id, its user id or a tag value, each shown with
 * its platform and language so a marketer knows which phone it is. `name` keeps its fields' ids apart on a screen.
 */
export function DevicePicker({
  name,
  picked,
  onPick,
}: {
  name: string;
  picked: string;
  onPick(deviceId: string): void;
}) {
  const { base } = useProject();
  const [by, setBy] = useState<FindBy>('id');
  const [text, setText] = useState('');
  const [tagKey, setTagKey] = useState('');
  const search = useDebounced(JSON.stringify(searchOf(by, text, tagKey)));
  const found = useLoad(
    () => api<DeviceListItem[]>('GET', `${base}/devices${query(JSON.parse(search))}`),
    [base, search],
  );
  return (
    <fieldset class="device-picker">
      <legend>Choose a device</legend>
      <div class="filters">
        <Select
          label="Find by"
          name={`${name}-find-by`}
          value={by}
          options={[
            ['id', 'Device id starts with'],
            ['user', 'User id'],
            ['tag', 'Tag value'],
          ]}
          onChange={setBy}
        />
        {by === 'tag' && (
          <Field label="Tag key" name={`${name}-tag-key`} list={tagKeysList} value={tagKey} onInput={setTagKey} />
        )}
        <Field
          label={by === 'tag' ? 'Tag value' : by === 'user' ? 'User id' : 'Id starts with'}
          name={`${name}-find`}
          list={by === 'tag' ? tagValuesList(tagKey.trim()) : undefined}
          value={text}
          onInput={setText}
        />
      </div>
      {by === 'tag' && <TagSuggestions />}
      <p data-testid={`${name}-picked`}>
        {picked === '' ? (
          'No device chosen: device variables render empty.'
        ) : (
          <>
            Previewing for <code>{picked}</code>{' '}
            <button type="button" class="link" onClick={() => onPick('')}>
              Clear
            </button>
          </>
        )}
      </p>
      <ErrorMessage error={found.error} />
      {found.data && !found.error && (
        <>
          <p class="muted" aria-live="polite">
            {found.data.length === 0
              ? 'No device matches.'
              : JSON.parse(search).order === 'newest'
                ? 'The newest devices; type to find others.'
                : `${found.data.length === shown ? `The first ${shown}` : found.data.length} found.`}
          </p>
          <ul class="device-choices" data-testid={`${name}-choices`}>
            {found.data.map((device) => (
              <li key={device.id}>
                <button
                  type="button"
                  class="link"
                  aria-pressed={picked === device.id}
                  onClick={() => onPick(device.id)}
                >
                  {device.id}
                </button>
                <small class="muted">{describe(device)}</small>
              </li>
            ))}
          </ul>
        </>
      )}
    </fieldset>
  );
}
