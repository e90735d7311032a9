import { useEffect, useState } from 'preact/hooks';
import type { ServerDeviceView } from '../../../src/schemas/device.ts';
import type { DeviceListItem, DeviceSubscription } from '../../../src/schemas/device-list.ts';
import { ApiFailure, api, query } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView } from '../ui.tsx';
import { Field, Select } from '../fields.tsx';
import { href, type ScreenProps } from '../route.ts';
import { BrowseDevices } from './devices-browse.tsx';
import { DeviceProfile, type FoundDevice } from './device-profile.tsx';

type LookupBy = 'deviceId' | 'userId';

async function lookUp(base: string, by: LookupBy, id: string): Promise<FoundDevice[]> {
  if (by === 'userId') return api<DeviceListItem[]>('GET', `${base}/devices${query({ userId: id, limit: 100 })}`);
  const path = `${base}/devices/${encodeURIComponent(id)}`;
  const [device, subscription] = await Promise.all([
    api<ServerDeviceView>('GET', path),
    api<DeviceSubscription>('GET', `${path}/subscription`),
  ]);
  // The device read has no platform; its user's devices list has it, for a device with a user.
  const ofUser =
    device.userId === null
      ? []
      : await api<DeviceListItem[]>('GET', `${base}/devices${query({ userId: device.userId, limit: 100 })}`);
  return [{ ...device, subscription, platform: ofUser.find((listed) => listed.id === device.id)?.platform }];
}

/** The look-up an address names: `#/devices/{deviceId}` a device's profile, `#/devices/user/{userId}` a user's. */
function addressed(path: string[]): { by: LookupBy; id: string } | null {
  if (path[0] === 'user' && path[1] !== undefined) return { by: 'userId', id: path[1] };
  return path[0] === undefined ? null : { by: 'deviceId', id: path[0] };
}

/** Look-up and browsing; a device or a user opens as a profile at an address of its own, from any list. */
export function DevicesScreen({ path }: ScreenProps) {
  const { base } = useProject();
  const opened = addressed(path);
  const [by, setBy] = useState<LookupBy>(opened?.by ?? 'userId');
  const [id, setId] = useState(opened?.id ?? '');
  // Each lookup is a new one, also of the same id: everything it shows is read again, the history included.
  const [search, setSearch] = useState(opened && { ...opened, round: 1 });
  useEffect(() => {
    if (opened === null || (opened.by === search?.by && opened.id === search.id)) return;
    setBy(opened.by);
    setId(opened.id);
    setSearch({ ...opened, round: (search?.round ?? 0) + 1 });
  }, [opened?.by, opened?.id]);
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
            // The profile's own address, to keep or send; the same look-up again reads it again.
            history.replaceState(
              null,
              '',
              by === 'userId' ? href('devices', 'user', id.trim()) : href('devices', id.trim()),
            );
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
                <DeviceProfile
                  key={device.id}
                  device={device}
                  round={search.round}
                  erasing={erase.running}
                  onErase={() => void erase.run(device.id)}
                />
              ))
          }
        </LoadedView>
      )}
      <BrowseDevices />
    </>
  );
}
