import { useEffect, useRef, useState } from 'preact/hooks';
import type { ProjectView } from '../../src/schemas/project.ts';
import { listProjects, session } from './api.ts';
import { useLoad } from './hooks.ts';
import { ProjectContext } from './context.ts';
import { LoadedView } from './ui.tsx';
import { Select } from './fields.tsx';
import { mayLeaveScreen } from './unsaved-edits.ts';
import { screens } from './screens/index.ts';
import { SignIn } from './sign-in.tsx';
import { isScreenName, screenTitles, type ScreenName } from './screen-titles.ts';

/** No screen named: the overview, which opens after sign-in (CONTRACTS §12); a name that is no screen: the project's. */
function currentScreen(): ScreenName {
  const name = location.hash.replace(/^#\/?/, '');
  if (name === '') return 'overview';
  return isScreenName(name) ? name : 'project';
}

function useHashScreen(): ScreenName {
  const [screen, setScreen] = useState(currentScreen);
  const shown = useRef(screen);
  useEffect(() => {
    const follow = () => {
      const next = currentScreen();
      if (next === shown.current) return;
      // Edits kept: the address goes back to the screen still shown, without another hashchange.
      if (!mayLeaveScreen()) return history.replaceState(null, '', `#${shown.current}`);
      shown.current = next;
      setScreen(next);
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return screen;
}

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

function Shell({
  projects,
  signOut,
  replaceKey,
}: {
  projects: ProjectView[];
  signOut(): void;
  replaceKey(oldKey: string, newKey: string): void;
}) {
  const screen = useHashScreen();
  const [projectId, setProjectId] = useState(() => {
    const remembered = session.project();
    return projects.some((project) => project.id === remembered) ? remembered! : (projects[0]?.id ?? '');
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [screen]);
  const project = projects.find((candidate) => candidate.id === projectId);
  const Screen = screens[screen];

  return (
    <>
      {/* Only the focus moves: the hash is the screen's route, and a link to #main opened the Project screen. */}
      <button type="button" class="skip link" onClick={() => heading.current?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <strong class="brand">Push console</strong>
        {projects.length > 1 && (
          <Select
            label="Project"
            name="project"
            value={projectId}
            options={projects.map((candidate) => [candidate.id, `${candidate.name} (${candidate.id})`] as const)}
            onChange={(id) => {
              if (!mayLeaveScreen()) return;
              session.selectProject(id);
              setProjectId(id);
            }}
          />
        )}
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Screens">
        <ul>
          {(Object.keys(screenTitles) as ScreenName[]).map((name) => (
            <li key={name}>
              <a href={`#/${name}`} aria-current={name === screen ? 'page' : undefined}>
                {screenTitles[name]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {screenTitles[screen]}
        </h1>
        {project === undefined ? (
          <p class="empty">This key sees no project.</p>
        ) : (
          <ProjectContext.Provider
            key={project.id}
            value={{ project, base: `/v1/projects/${encodeURIComponent(project.id)}`, replaceKey }}
          >
            <Screen />
          </ProjectContext.Provider>
        )}
      </main>
    </>
  );
}
