import { useEffect, useState } from 'preact/hooks';
import type { ProjectView } from '../../src/schemas/project.ts';
import { listProjects, session } from './api.ts';
import { useLoad } from './hooks.ts';
import { LoadedView } from './ui.tsx';
import { mayLeaveScreen } from './unsaved-edits.ts';
import { SignIn } from './sign-in.tsx';
import { Shell } from './shell.tsx';

export function App() {
  const [key, setKey] = useState(session.key);
  const [projects, setProjects] = useState<ProjectView[] | undefined>(undefined);
  const restored = useLoad(key !== null && projects === undefined ? () => listProjects() : null, [
    key,
    projects === undefined,
  ]);
  useEffect(() => {
    if (restored.data) setProjects(restored.data);
  }, [restored.data]);

  const signOut = () => {
    if (!mayLeaveScreen()) return;
    session.signOut();
    setKey(null);
    setProjects(undefined);
  };

  if (key === null) {
    return (
      <SignIn
        onSignedIn={(signedInKey, list) => {
          session.signIn(signedInKey);
          setKey(signedInKey);
          setProjects(list);
        }}
      />
    );
  }
  if (projects === undefined) {
    return (
      <main id="main">
        <LoadedView loaded={restored}>{() => null}</LoadedView>
        {/* A rate limit or an outage passes: the key is kept for another try. */}
        {restored.error && (
          <div class="actions">
            <button type="button" onClick={restored.reload}>
              Try again
            </button>
            <button type="button" class="secondary" onClick={signOut}>
              Sign out
            </button>
          </div>
        )}
      </main>
    );
  }
  return (
    <Shell
      projects={projects}
      signOut={signOut}
      replaceKey={(oldKey, newKey) => {
        if (session.key() !== oldKey) return;
        session.signIn(newKey);
        setKey(newKey);
      }}
    />
  );
}
