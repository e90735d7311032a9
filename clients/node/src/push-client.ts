import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import { operationRoutes } from './generated/operation-routes.ts';
import type { paths } from './generated/openapi.ts';
import type { OperationCalls, OperationId } from './operation-types.ts';
import { PushEngineError } from './push-engine-error.ts';
import { defaultRetryPolicy, type RetryPolicy, retryingFetch } from './retrying-fetch.ts';
import { pagedLists, type PagedLists } from './paged-lists.ts';

export interface PushClientOptions {
  /** Where the ingress answers, e.g. http://localhost:3000. */
  baseUrl: string;
  /** The project's server API key (or ADMIN_TOKEN): every call outside /v1/sdk. */
  apiKey?: string;
  /** The project's client key: the SDK's calls (/v1/sdk). */
  clientKey?: string;
  /** The project every call is about unless the call names another. */
  projectId?: string;
  retry?: Partial<RetryPolicy>;
  /** The fetch requests go through (globalThis.fetch unless given). */
  fetch?: typeof fetch;
}

export type PushClient = OperationCalls & PagedLists;

interface LooseInput {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  projectId?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
  contentType?: string;
  as?: 'text' | 'stream';
}

/** A file answer as the call asked for it; JSON (a delivery log asked for without format=csv) as its `data`. */
async function readAnswer(response: Response, as: LooseInput['as']): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) return ((await response.json()) as { data: unknown }).data;
  return as === 'stream' ? response.body : await response.text();
}

/** A client of the push API: a method per operation, answering the call's `data` or throwing a PushEngineError. */
export function createPushClient(options: PushClientOptions): PushClient {
  const http = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch({ ...defaultRetryPolicy, ...options.retry }, options.fetch),
  });
  const call = async (id: OperationId, input: LooseInput = {}): Promise<unknown> => {
    const route = operationRoutes[id];
    const key = route.path.startsWith('/v1/sdk/') ? options.clientKey : options.apiKey;
    const headers: Record<string, string> = {};
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    if (route.idempotencyKey) headers['idempotency-key'] = input.idempotencyKey ?? randomUUID();
    if (route.fileBody && input.contentType !== undefined) headers['content-type'] = input.contentType;
    const projectId = input.projectId ?? options.projectId;
    const { data, error, response } = await http.request(
      route.method as never,
      route.path as never,
      {
        params: { path: { ...(projectId === undefined ? {} : { projectId }), ...input.path }, query: input.query },
        body: input.body,
        headers,
        signal: input.signal,
        // A file body goes as it is; a stream needs half duplex in Node's fetch.
        ...(route.fileBody && { bodySerializer: (body: unknown) => body, duplex: 'half' }),
        // Sending a stream again would mean holding all of it in memory, so a stream is sent once, without retries.
        ...(input.body instanceof ReadableStream && { fetch: options.fetch ?? fetch }),
        ...(route.fileAnswer && { parseAs: 'stream' }),
      } as never,
    );
    if (error !== undefined || !response.ok) throw PushEngineError.fromAnswer(response.status, error);
    if (route.fileAnswer) return readAnswer(response, input.as);
    return (data as { data: unknown }).data;
  };
  const calls = Object.fromEntries(
    Object.keys(operationRoutes).map((id) => [id, (input?: LooseInput) => call(id as OperationId, input)]),
  ) as unknown as OperationCalls;
  return { ...calls, ...pagedLists(calls) };
}
