import { useState } from 'preact/hooks';
import type { ProjectView, RotatedKeys } from '../../../src/schemas/project.ts';
import { api, session } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { ErrorMessage, LoadedView, formatTime } from '../ui.tsx';
import { ProjectSettingsForm } from './project-settings.tsx';
import { ProjectConversionsForm } from './project-conversions.tsx';
import { Secret } from '../layout.tsx';

function rateLimitText({ rateLimit }: ProjectView): string {
  if (rateLimit.requestsPerMinute === null) return 'Unlimited';
  return `${rateLimit.requestsPerMinute} requests per minute; ${rateLimit.used ?? 0} used in the last minute`;
}

export function ProjectScreen() {
  const { base, replaceKey } = useProject();
  const loaded = useLoad(() => api<ProjectView>('GET', base), [base]);
  const [confirming, setConfirming] = useState(false);
  const rotate = useAction(async () => {
    const oldKey = session.key() ?? '';
    const keys = await api<RotatedKeys>('POST', `${base}/keys/rotate`);
    replaceKey(oldKey, keys.apiKey);
    return keys;
  });

  return (
    <>
      <LoadedView loaded={loaded}>
        {(project) => (
          <dl class="facts">
            <dt>Project id</dt>
            <dd>
              <code>{project.id}</code>
            </dd>
            <dt>Name</dt>
            <dd>{project.name}</dd>
            <dt>Plan</dt>
            <dd>{project.plan}</dd>
            <dt>Rate limit</dt>
            <dd>{rateLimitText(project)}</dd>
            <dt>Created</dt>
            <dd>{formatTime(project.createdAt)}</dd>
          </dl>
        )}
      </LoadedView>
      {loaded.data && (
        <ProjectSettingsForm key={loaded.data.id} base={base} project={loaded.data} onSaved={loaded.reload} />
      )}
      {loaded.data && (
        <ProjectConversionsForm key={loaded.data.id} base={base} project={loaded.data} onSaved={loaded.reload} />
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">API keys</h2>
        <p>
          Keys are shown once, when they are issued; only their hashes are stored. Rotating revokes the current server
          and client keys at once.
        </p>
        {!confirming && rotate.result === undefined && (
          <button type="button" class="danger-outline" onClick={() => setConfirming(true)}>
            Rotate keys
          </button>
        )}
        {confirming && (
          <fieldset class="confirm" aria-label="Confirm key rotation">
            <p>Apps and servers using the current keys stop working until they get the new ones.</p>
            <button
              type="button"
              class="danger"
              disabled={rotate.running}
              onClick={async () => {
                await rotate.run();
                setConfirming(false);
              }}
            >
              Revoke the current keys and issue new ones
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </fieldset>
        )}
        <ErrorMessage error={rotate.error} />
        {rotate.result && (
          <div class="notice" role="status">
            <p>New keys, shown this once: copy them now.</p>
            <Secret label="Server API key" value={rotate.result.apiKey} />
            <Secret label="Client key" value={rotate.result.clientKey} />
          </div>
        )}
      </section>
    </>
  );
}
