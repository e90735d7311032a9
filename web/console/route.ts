import { useEffect, useRef, useState } from 'preact/hooks';
import { mayLeaveScreen } from './unsaved-edits.ts';
import { isScreenName, type ScreenName } from './screen-titles.ts';

/** Where the address points: a screen, and what within it (`#/notifications/{id}` is one notification's page). */
export interface Route {
  screen: ScreenName;
  path: string[];
}

/** What a screen gets from the address: the parts after its name (`#/notifications/{id}` gives `[id]`). */
export interface ScreenProps {
  path: string[];
}

/** No screen named: the overview, which opens after sign-in (CONTRACTS §12); a name that is no screen: the project's. */
export function parseHash(hash: string): Route {
  const [name = '', ...path] = hash.replace(/^#\/?/, '').split('/');
  if (name === '') return { screen: 'overview', path: [] };
  if (!isScreenName(name)) return { screen: 'project', path: [] };
  return { screen: name, path: path.filter((part) => part !== '').map(decodeURIComponent) };
}

/** The address of a screen or of something within it, each part encoded (an id may hold any character). */
export const href = (screen: ScreenName, ...path: string[]): string =>
  `#/${[screen, ...path].map(encodeURIComponent).join('/')}`;

const key = (route: Route) => [route.screen, ...route.path].join('/');

/** The route the address names, followed as it changes unless the shown screen keeps edits the user will not lose. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  const shown = useRef(route);
  useEffect(() => {
    const follow = () => {
      const next = parseHash(location.hash);
      if (key(next) === key(shown.current)) return;
      // Edits kept: the address goes back to the screen still shown, without another hashchange. Within one screen
      // (a list to one of its items) nothing is lost.
      if (next.screen !== shown.current.screen && !mayLeaveScreen())
        return history.replaceState(null, '', href(shown.current.screen, ...shown.current.path));
      shown.current = next;
      setRoute(next);
    };
    addEventListener('hashchange', follow);
    // The address may have changed between the first render and this effect, whose hashchange nobody heard.
    follow();
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
