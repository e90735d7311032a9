/** The one way the console reaches the server: the public REST API, with the signed-in key as a bearer token. */
import type { ProjectView } from '../../src/schemas/project.ts';

const sessionKeyName = 'pushengine.console.key';
const projectKeyName = 'pushengine.console.project';

/** The tab's session storage only: gone when the tab closes or on sign-out, never in a URL or a cookie. */
export const session = {
  key: (): string | null => sessionStorage.getItem(sessionKeyName),
  signIn: (key: string) => sessionStorage.setItem(sessionKeyName, key),
  /** The project chosen last, for a key that sees several (ADMIN_TOKEN). */
  project: (): string | null => sessionStorage.getItem(projectKeyName),
  selectProject: (projectId: string) => sessionStorage.setItem(projectKeyName, projectId),
  signOut: () => {
    sessionStorage.removeItem(sessionKeyName);
    sessionStorage.removeItem(projectKeyName);
  },
};

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An answer in the CONTRACTS §1 error format, or a network failure put in the same shape. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: ErrorDetail[] };
}

export async function api<T>(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; key?: string; file?: { body: Blob; type: string } } = {},
): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.key ?? session.key() ?? ''}`,
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.file) headers['content-type'] = options.file.type;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.file?.body ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  } catch {
    throw new ApiFailure(0, 'network', 'The server could not be reached; check the connection and try again.');
  }
  const payload = (await response.json().catch(() => null)) as ({ data: T } & ErrorBody) | null;
  if (!response.ok || payload === null) {
    const error = payload?.error;
    throw new ApiFailure(
      response.status,
      error?.code ?? 'unexpected',
      error?.message ?? `The server answered ${response.status} without an explanation.`,
      error?.details,
    );
  }
  return payload.data;
}

/**
 * A file the API streams (an export), read whole into the tab and handed to the browser as a download: a link to the
 * route itself would carry no key, which never goes into a URL.
 */
export async function download(path: string, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { authorization: `Bearer ${session.key() ?? ''}` } });
  } catch {
    throw new ApiFailure(0, 'network', 'The server could not be reached; check the connection and try again.');
  }
  if (!response.ok) {
    const error = ((await response.json().catch(() => null)) as ErrorBody | null)?.error;
    throw new ApiFailure(response.status, error?.code ?? 'unexpected', error?.message ?? 'The download failed.');
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** A query string from the given values, leaving out the empty ones. */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The most a list route answers at once (templates, segments, journeys and, for ADMIN_TOKEN, projects). */
const listPageSize = 1000;

/** Page after page, each read after the id of the last item of the one before, until a page is not full. */
async function readAllPages<T extends { id: string }>(readPage: (lastId: string | undefined) => Promise<T[]>) {
  const items: T[] = [];
  for (;;) {
    const page = await readPage(items.at(-1)?.id);
    items.push(...page);
    if (page.length < listPageSize) return items;
  }
}

/**
 * Every template, segment or journey of a list route, newest first, paged with before. A route answers 100 without a
 * limit, and the console shows and offers them all.
 */
export function listAll<T extends { id: string }>(path: string): Promise<T[]> {
  return readAllPages((before) => api<T[]>('GET', `${path}${query({ limit: listPageSize, before })}`));
}

/** Every project the key may use (all of them for ADMIN_TOKEN), in id order, paged with after. */
export function listProjects(key?: string): Promise<ProjectView[]> {
  return readAllPages((after) =>
    api<ProjectView[]>('GET', `/v1/projects${query({ limit: listPageSize, after })}`, { key }),
  );
}
