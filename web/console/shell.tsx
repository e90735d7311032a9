import type { FunctionComponent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ProjectView } from '../../src/schemas/project.ts';
import { session } from './api.ts';
import { ProjectContext } from './context.ts';
import { Select } from './fields.tsx';
import { href, useRoute, type ScreenProps } from './route.ts';
import { screens } from './screens/index.ts';
import { screenTitles, type ScreenName } from './screen-titles.ts';
import { Loading } from './ui.tsx';
import { mayLeaveScreen } from './unsaved-edits.ts';

/** The screen's code, loaded the first time it is shown (each screen is a chunk of its own). */
function useScreenCode(name: ScreenName) {
  const [loaded, setLoaded] = useState<{ name: ScreenName; Screen: FunctionComponent<ScreenProps> } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setFailed(false);
    screens[name]().then(
      (Screen) => current && setLoaded({ name, Screen }),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [name]);
  return { Screen: loaded?.name === name ? loaded.Screen : undefined, failed };
}

export function Shell({
  projects,
  signOut,
  replaceKey,
}: {
  projects: ProjectView[];
  signOut(): void;
  replaceKey(oldKey: string, newKey: string): void;
}) {
  const route = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  const [projectId, setProjectId] = useState(() => {
    const remembered = session.project();
    return projects.some((project) => project.id === remembered) ? remembered! : (projects[0]?.id ?? '');
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    setMenuOpen(false);
    heading.current?.focus();
  }, [route.screen]);
  const project = projects.find((candidate) => candidate.id === projectId);
  const { Screen, failed } = useScreenCode(route.screen);

  return (
    <>
      {/* Only the focus moves: the hash is the screen's route, and a link to #main opened the Project screen. */}
      <button type="button" class="skip link" onClick={() => heading.current?.focus()}>
        Skip to content
      </button>
      <header class="top" data-menu={menuOpen ? 'open' : 'closed'}>
        <strong class="brand">Push console</strong>
        <nav aria-label="Screens">
          <button
            type="button"
            class="secondary menu-button"
            aria-expanded={menuOpen}
            aria-controls="screen-links"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </button>
          <ul id="screen-links">
            {(Object.keys(screenTitles) as ScreenName[]).map((name) => (
              <li key={name}>
                <a
                  href={href(name)}
                  aria-current={name === route.screen ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                >
                  {screenTitles[name]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="top-tools">
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
        </div>
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {screenTitles[route.screen]}
        </h1>
        {project === undefined ? (
          <p class="empty">This key sees no project.</p>
        ) : failed ? (
          <p class="error" role="alert">
            This screen could not be loaded: reload the page to try again.
          </p>
        ) : Screen === undefined ? (
          <Loading />
        ) : (
          <ProjectContext.Provider
            key={project.id}
            value={{ project, base: `/v1/projects/${encodeURIComponent(project.id)}`, replaceKey }}
          >
            <Screen path={route.path} />
          </ProjectContext.Provider>
        )}
      </main>
    </>
  );
}
