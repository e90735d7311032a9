import { useState } from 'preact/hooks';
import type { ProjectView } from '../../src/schemas/project.ts';
import { ApiFailure, listProjects } from './api.ts';
import { useAction } from './hooks.ts';
import { ErrorMessage } from './ui.tsx';
import { Field } from './fields.tsx';

/** Whitespace around a pasted key, the invisible kinds included (zero-width space, joiners, word joiner, BOM). */
const around = /^[\s\u200B-\u200D\u2060\u180E]+|[\s\u200B-\u200D\u2060\u180E]+$/g;

/** Keys and ADMIN_TOKEN are printable ASCII without spaces: a bearer token, and a header a browser can send. */
function keyProblem(key: string): string | undefined {
  const foreign = [...new Set(key.match(/[^\x21-\x7E]/gu) ?? [])];
  if (foreign.length === 0) return undefined;
  const named = foreign.map(
    (character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
  return `This is not an API key: it holds ${named.join(', ')}, which no key holds. Copy the key again, or type it.`;
}

export function SignIn({ onSignedIn }: { onSignedIn(key: string, projects: ProjectView[]): void }) {
  const [key, setKey] = useState('');
  const signIn = useAction((candidate: string) => {
    const problem = keyProblem(candidate);
    return problem === undefined ? listProjects(candidate) : Promise.reject(new ApiFailure(0, 'not_a_key', problem));
  });
  return (
    <main id="main" class="sign-in">
      <h1>Push console</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const candidate = key.replace(around, '');
          const projects = await signIn.run(candidate);
          if (projects) onSignedIn(candidate, projects);
        }}
      >
        <Field
          label="Server API key or ADMIN_TOKEN"
          name="key"
          type="password"
          value={key}
          onInput={setKey}
          required
          hint="Kept in this tab's session only; signing out or closing the tab forgets it."
        />
        <button type="submit" disabled={signIn.running}>
          {signIn.running ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorMessage error={signIn.error} />
      </form>
    </main>
  );
}
