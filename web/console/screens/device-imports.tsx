import { useState } from 'preact/hooks';
import type { DeviceImportView } from '../../../src/schemas/device-import.ts';
import { api } from '../api.ts';
import { useAction, useInterval, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';

/** A .csv file is sent as CSV; any other (.ndjson, .jsonl) as NDJSON, one device per line. */
const mediaTypeOf = (file: File) => (/\.csv$/i.test(file.name) ? 'text/csv' : 'application/x-ndjson');

const running = (view: DeviceImportView) => view.status === 'queued' || view.status === 'running';

const statusLabels: Record<DeviceImportView['status'], string> = {
  queued: 'waiting to start',
  running: 'importing',
  completed: 'done',
  failed: 'failed',
};

function LineErrors({ view }: { view: DeviceImportView }) {
  if (view.errors.length === 0) return null;
  return (
    <>
      <h3 id="import-errors-heading">
        Rows not imported{view.failed > view.errors.length && ` (the first ${view.errors.length} of ${view.failed})`}
      </h3>
      <table class="list" data-testid="import-errors" aria-labelledby="import-errors-heading">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {view.errors.map((error) => (
            <tr key={error.line}>
              <td>Line {error.line}</td>
              <td>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
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

function RecentImports({ imports, onShow }: { imports: DeviceImportView[]; onShow(id: string): void }) {
  return (
    <>
      <h2 id="recent-imports-heading">Recent imports</h2>
      <table class="list" data-testid="recent-imports" aria-labelledby="recent-imports-heading">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Status</th>
            <th scope="col">Rows</th>
            <th scope="col">Problems</th>
            <th scope="col">
              <span class="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {imports.map((view) => (
            <tr key={view.id}>
              <td data-label="Started">{formatTime(view.createdAt)}</td>
              <td data-label="Status">{statusLabels[view.status]}</td>
              <td data-label="Rows">{view.rows}</td>
              <td data-label="Problems">{view.failed}</td>
              <td>
                <button type="button" class="secondary" onClick={() => onShow(view.id)}>
                  Show
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Moving in: upload a file of devices (ours, or a OneSignal export), then watch it being applied. */
export function DeviceImportsScreen() {
  const { base } = useProject();
  const [file, setFile] = useState<File | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const recent = useLoad(() => api<DeviceImportView[]>('GET', `${base}/device-imports`), [base]);
  useInterval(() => recent.data?.some(running) && recent.reload(), 2000);
  const upload = useAction(async (chosen: File) => {
    const started = await api<{ id: string }>('POST', `${base}/device-imports`, {
      file: { body: chosen, type: mediaTypeOf(chosen) },
    });
    setShown(started.id);
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
        {(imports) => <RecentImports imports={imports} onShow={setShown} />}
      </LoadedView>
    </>
  );
}
