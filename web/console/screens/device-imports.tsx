import { useState } from 'preact/hooks';
import type { DeviceImportView } from '../../../src/schemas/device-import.ts';
import { api } from '../api.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';
import { type Column, DataTable } from '../layout.tsx';
import { href, type ScreenProps } from '../route.ts';

/** A .csv file is sent as CSV; any other (.ndjson, .jsonl) as NDJSON, one device per line. */
const mediaTypeOf = (file: File) => (/\.csv$/i.test(file.name) ? 'text/csv' : 'application/x-ndjson');

const running = (view: DeviceImportView) => view.status === 'queued' || view.status === 'running';

const statusLabels: Record<DeviceImportView['status'], string> = {
  queued: 'waiting to start',
  running: 'importing',
  completed: 'done',
  failed: 'failed',
};

type LineError = DeviceImportView['errors'][number];

const lineErrorColumns: Column<LineError>[] = [
  { label: 'Line', kind: 'number', cell: (error) => error.line },
  { label: 'Problem', kind: 'message', cell: (error) => error.message },
];

const recentColumns: Column<DeviceImportView>[] = [
  { label: 'Started', kind: 'when', cell: (view) => formatTime(view.createdAt) },
  { label: 'Status', cell: (view) => statusLabels[view.status] },
  { label: 'Rows', kind: 'number', cell: (view) => view.rows },
  { label: 'Problems', kind: 'number', cell: (view) => view.failed },
];

function LineErrors({ view }: { view: DeviceImportView }) {
  if (view.errors.length === 0) return null;
  return (
    <>
      <h3>
        Rows not imported{view.failed > view.errors.length && ` (the first ${view.errors.length} of ${view.failed})`}
      </h3>
      <DataTable
        caption="Rows not imported"
        testId="import-errors"
        columns={lineErrorColumns}
        rows={view.errors}
        rowKey={(error) => String(error.line)}
      />
    </>
  );
}

/** One import as it goes: a progress bar over the file's bytes, its counts, and its line errors; refreshed by itself. */
function ImportProgress({ id }: { id: string }) {
  const { base } = useProject();
  const loaded = useLoad(
    () => api<DeviceImportView>('GET', `${base}/device-imports/${encodeURIComponent(id)}`),
    [base, id],
  );
  useInterval(() => loaded.data && running(loaded.data) && loaded.reload(), 1000);
  return (
    <LoadedView loaded={loaded}>
      {(view) => (
        <section aria-labelledby="import-progress-heading" data-import={view.id} data-status={view.status}>
          <h2 id="import-progress-heading">Import of {formatTime(view.createdAt)}</h2>
          <p>
            <span class={`status status-${view.status}`}>{statusLabels[view.status]}</span>
          </p>
          <progress max={view.bytes} value={view.bytesRead} aria-label="Import progress">
            {Math.round((100 * view.bytesRead) / view.bytes)}%
          </progress>
          {view.reason && <p class="error">{view.reason}</p>}
          <dl class="facts">
            <dt>Rows read</dt>
            <dd data-testid="import-rows">{view.rows}</dd>
            <dt>New devices</dt>
            <dd data-testid="import-created">{view.created}</dd>
            <dt>Devices updated</dt>
            <dd data-testid="import-updated">{view.updated}</dd>
            <dt>Rows with a problem</dt>
            <dd data-testid="import-failed">{view.failed}</dd>
          </dl>
          <LineErrors view={view} />
        </section>
      )}
    </LoadedView>
  );
}

function RecentImports({ imports }: { imports: DeviceImportView[] }) {
  return (
    <>
      <h2>Recent imports</h2>
      <DataTable
        caption="Recent imports"
        testId="recent-imports"
        columns={[
          ...recentColumns,
          {
            label: 'Details',
            cell: (view) => <a href={href('device-imports', view.id)}>Show</a>,
          },
        ]}
        rows={imports}
        rowKey={(view) => view.id}
      />
    </>
  );
}

/**
 * Moving in: upload a file of devices (ours, or a OneSignal export), then watch it being applied; an import shown has
 * its own address (`#/device-imports/{id}`).
 */
export function DeviceImportsScreen({ path }: ScreenProps) {
  const [shown] = path;
  const { base } = useProject();
  const [file, setFile] = useState<File | null>(null);
  const recent = useLoad(() => api<DeviceImportView[]>('GET', `${base}/device-imports`), [base]);
  useInterval(() => recent.data?.some(running) && recent.reload(), 2000);
  const upload = useAction(async (chosen: File) => {
    const started = await api<{ id: string }>('POST', `${base}/device-imports`, {
      file: { body: chosen, type: mediaTypeOf(chosen) },
    });
    location.hash = href('device-imports', started.id);
    recent.reload();
  });
  return (
    <>
      <form
        class="import-upload"
        onSubmit={(event) => {
          event.preventDefault();
          if (file) void upload.run(file);
        }}
      >
        <label for="import-file">Devices file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,.ndjson,.jsonl"
          onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)}
        />
        <p class="muted">
          A CSV file with a header row (id, platform, pushToken, userId, language, timezone, isSubscribed and a tag:name
          column per tag, or a OneSignal subscriptions export as it is), or a .ndjson file with one device per line. Up
          to 256 MB and a million devices; devices already here are updated.
        </p>
        <button type="submit" disabled={file === null || upload.running}>
          {upload.running ? 'Uploading…' : 'Import'}
        </button>
        <ErrorMessage error={upload.error} />
      </form>
      {shown && <ImportProgress key={shown} id={shown} />}
      <LoadedView loaded={recent} empty="No import yet." isEmpty={(imports) => imports.length === 0}>
        {(imports) => <RecentImports imports={imports} />}
      </LoadedView>
    </>
  );
}
