import { href } from '../route.ts';
import { inWords, platformWords, reasonInWords } from '../words.ts';
import { DataTable } from '../layout.tsx';
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
          <DataTable
            caption="Devices, newest first"
            testId="newest-devices"
            rows={rows}
            rowKey={(device) => device.id}
            rowProps={(device) => ({ 'data-device-row': device.id })}
            columns={[
              {
                label: 'Device',
                kind: 'id',
                cell: (device) => <a href={href('devices', device.id)}>{device.id}</a>,
              },
              { label: 'Platform', cell: (device) => inWords(platformWords, device.platform) },
              { label: 'User', kind: 'id', cell: (device) => device.userId ?? '—' },
              {
                label: 'Subscribed',
                cell: (device) =>
                  device.subscription.isSubscribed ? 'Yes' : `No: ${reasonInWords(device.subscription.reason)}`,
              },
            ]}
          />
        )}
      </LoadedView>
      <LoadMore list={list} />
    </section>
  );
}
