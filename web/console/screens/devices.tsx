import { useEffect, useState } from 'preact/hooks';
import type { DeviceView } from '../../../src/schemas/device.ts';
import type { DeviceListItem, DeviceSubscription } from '../../../src/schemas/device-list.ts';
import { ApiFailure, api, query } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ConfirmButton } from '../save-controls.tsx';
import { ErrorMessage, LoadedView, Tags } from '../ui.tsx';
import { Field, Select } from '../fields.tsx';
import { valueAsTyped } from './condition-values.ts';
import { BrowseDevices } from './devices-browse.tsx';
import { History, Subscription } from './device-history.tsx';

type LookupBy = 'deviceId' | 'userId';
type FoundDevice = DeviceView & { platform?: DeviceListItem['platform']; subscription: DeviceSubscription };

async function lookUp(base: string, by: LookupBy, id: string): Promise<FoundDevice[]> {
  if (by === 'userId') return api<DeviceListItem[]>('GET', `${base}/devices${query({ userId: id, limit: 100 })}`);
  const path = `${base}/devices/${encodeURIComponent(id)}`;
  const [device, subscription] = await Promise.all([
    api<DeviceView>('GET', path),
    api<DeviceSubscription>('GET', `${path}/subscription`),
  ]);
  return [{ ...device, subscription }];
}

export function DevicesScreen() {
  const { base } = useProject();
  const [by, setBy] = useState<LookupBy>('userId');
  const [id, setId] = useState('');
  // Each lookup is a new one, also of the same id: everything it shows is read again, the history included.
  const [search, setSearch] = useState<{ by: LookupBy; id: string; round: number } | null>(null);
  const found = useLoad(search === null ? null : () => lookUp(base, search.by, search.id), [base, search]);
  const [erased, setErased] = useState<ReadonlySet<string>>(new Set());
  const erase = useAction(async (deviceId: string) => {
    // Erased meanwhile (another tab, the API): what was asked for is done.
    await api('DELETE', `${base}/devices/${encodeURIComponent(deviceId)}`).catch((error: unknown) => {
      if (!(error instanceof ApiFailure && error.status === 404)) throw error;
    });
    setErased((known) => new Set(known).add(deviceId));
    return deviceId;
  });
  const [blankLookUp, setBlankLookUp] = useState(false);
  // What a look-up read after the erasures holds none of them, and shows a device registered again since.
  useEffect(() => setErased(new Set()), [found.data]);

  return (
    <>
      <search aria-label="Look up devices">
        <form
          class="filters"
          onSubmit={(event) => {
            event.preventDefault();
            // Blank, a user id would read as no filter at all: every device of the project, to erase by mistake.
            setBlankLookUp(id.trim() === '');
            if (id.trim() === '') return;
            setSearch({ by, id: id.trim(), round: (search?.round ?? 0) + 1 });
            erase.reset();
          }}
        >
          <Select
            label="Look up by"
            name="lookup-by"
            value={by}
            options={
              [
                ['userId', 'User id'],
                ['deviceId', 'Device id'],
              ] as const
            }
            onChange={setBy}
          />
          <Field
            label={by === 'userId' ? 'User id' : 'Device id'}
            name="lookup-id"
            required
            value={id}
            onInput={setId}
            error={blankLookUp ? `Type a ${by === 'userId' ? 'user' : 'device'} id; spaces alone are none.` : undefined}
          />
          <button type="submit">Look up</button>
        </form>
      </search>
      <ErrorMessage error={erase.error} />
      {erase.result !== undefined && (
        <p role="status" class="notice">
          Erased device <code>{erase.result}</code> with its history and events.
        </p>
      )}
      {search === null ? (
        <p class="empty">Look a device up by its id, or every device of a user by the user id.</p>
      ) : (
        <LoadedView
          loaded={found}
          empty="No device found."
          isEmpty={(devices) => devices.every((device) => erased.has(device.id))}
        >
          {(devices) =>
            devices
              .filter((device) => !erased.has(device.id))
              .map((device) => (
                <article class="device" key={device.id} aria-labelledby={`device-${device.id}`} data-device={device.id}>
                  <h2 id={`device-${device.id}`}>
                    Device <code>{device.id}</code>
                  </h2>
                  <dl class="facts">
                    <dt>User id</dt>
                    <dd>{device.userId ?? '—'}</dd>
                    {device.platform && (
                      <>
                        <dt>Platform</dt>
                        <dd>{device.platform}</dd>
                      </>
                    )}
                    <dt>Subscription</dt>
                    <dd>
                      <Subscription subscription={device.subscription} />
                    </dd>
                    <dt>Tags</dt>
                    <dd data-testid="tags">
                      <Tags tags={device.tags} format={valueAsTyped} />
                    </dd>
                  </dl>
                  <h3>Notification history</h3>
                  <History key={search.round} deviceId={device.id} />
                  <ConfirmButton
                    label="Erase device"
                    question="Erase this device with its notification history, its events and their counts? It cannot be undone."
                    disabled={erase.running}
                    onConfirm={() => void erase.run(device.id)}
                  />
                </article>
              ))
          }
        </LoadedView>
      )}
      <BrowseDevices />
    </>
  );
}
