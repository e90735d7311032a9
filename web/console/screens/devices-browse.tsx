import { href } from '../route.ts';
import { reasonInWords } from '../words.ts';
import { useState } from 'preact/hooks';
import type { DeviceListItem } from '../../../src/schemas/device-list.ts';
import { api, query } from '../api.ts';
import { LoadMore, usePagedList } from '../paged-list.tsx';
import { useProject } from '../context.ts';
import { Select } from '../fields.tsx';
import { LoadedView } from '../ui.tsx';
import { DownloadButtons } from '../download-buttons.tsx';

const pageSize = 50;
type PlatformFilter = 'any' | 'android' | 'ios' | 'web';
type StateFilter = 'any' | 'true' | 'false';

/** The project's devices, newest first, by platform and subscription state (GET /devices?order=newest). */
export function BrowseDevices() {
  const { base } = useProject();
  const [platform, setPlatform] = useState<PlatformFilter>('any');
  const [subscribed, setSubscribed] = useState<StateFilter>('any');
  const filters = {
    order: 'newest',
    platform: platform === 'any' ? undefined : platform,
    subscribed: subscribed === 'any' ? undefined : subscribed,
  };
  const list = usePagedList(
    (before, limit) => api<DeviceListItem[]>('GET', `${base}/devices${query({ ...filters, limit, before })}`),
    (device) => device.id,
    pageSize,
    [base, platform, subscribed],
  );
  const { first, rows } = list;
  return (
    <section aria-labelledby="browse-devices-heading">
      <h2 id="browse-devices-heading">Newest devices</h2>
      <DownloadButtons
        label="Export every device"
        choices={[
          { label: 'Export all devices (CSV)', path: `${base}/devices/export?format=csv`, fileName: 'devices.csv' },
          {
            label: 'Export all devices (NDJSON)',
            path: `${base}/devices/export?format=ndjson`,
            fileName: 'devices.ndjson',
          },
        ]}
      />
      <div class="filters">
        <Select
          label="Platform"
          value={platform}
          options={[
            ['any', 'Any platform'],
            ['android', 'Android'],
            ['ios', 'iOS'],
            ['web', 'Web'],
          ]}
          onChange={setPlatform}
        />
        <Select
          label="Subscription"
          value={subscribed}
          options={[
            ['any', 'Subscribed or not'],
            ['true', 'Subscribed'],
            ['false', 'Unsubscribed'],
          ]}
          onChange={setSubscribed}
        />
      </div>
      <LoadedView loaded={first} empty="No device matches.">
        {() => (
          <table class="list" data-testid="newest-devices">
            <caption class="visually-hidden">Devices, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Platform</th>
                <th scope="col">User</th>
                <th scope="col">Subscribed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((device) => (
                <tr key={device.id} data-device-row={device.id}>
                  <td>
                    <a class="id" href={href('devices', device.id)}>
                      {device.id}
                    </a>
                  </td>
                  <td>{device.platform}</td>
                  <td>{device.userId ?? '—'}</td>
                  <td>
                    {device.subscription.isSubscribed ? 'yes' : `no: ${reasonInWords(device.subscription.reason)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadedView>
      <LoadMore list={list} />
    </section>
  );
}
