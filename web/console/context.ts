import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ProjectView } from '../../src/schemas/project.ts';

export interface ConsoleProject {
  project: ProjectView;
  /** Every server API path of the project starts here. */
  base: string;
  /** After a key rotation the console goes on with the new server key when that is what it signed in with. */
  replaceKey(oldKey: string, newKey: string): void;
}

export const ProjectContext = createContext<ConsoleProject | null>(null);

export function useProject(): ConsoleProject {
  const value = useContext(ProjectContext);
  if (value === null) throw new Error('a screen rendered outside the signed-in console');
  return value;
}
