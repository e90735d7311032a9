import type { operations } from './generated/openapi.ts';
import type { operationRoutes } from './generated/operation-routes.ts';

export type OperationId = keyof typeof operationRoutes & keyof operations;

type Parameters<O> = O extends { parameters: infer P } ? P : never;
/** The path parameters besides the project id, which the client holds. */
type PathParameters<O> = Omit<Parameters<O> extends { path: infer T } ? T : object, 'projectId'>;
type QueryParameters<O> = Parameters<O> extends { query?: infer T } ? Exclude<T, undefined> : never;
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type RequestBody<O> = O extends { requestBody?: infer R } ? Content<Exclude<R, undefined>> : never;

type PathInput<O> = keyof PathParameters<O> extends never ? object : { path: PathParameters<O> };
type QueryInput<O> = [QueryParameters<O>] extends [never] ? object : { query?: QueryParameters<O> };
type BodyInput<O> = [RequestBody<O>] extends [never]
  ? object
  : O extends { requestBody: unknown }
    ? { body: RequestBody<O> }
    : { body?: RequestBody<O> };

/** What a call takes: its path parameters, query and body as the OpenAPI document states them. */
export type CallInput<K extends OperationId> = PathInput<operations[K]> &
  QueryInput<operations[K]> &
  BodyInput<operations[K]> & {
    /** Another project than the client's (with an admin token). */
    projectId?: string;
    /** Made for every call that takes one unless given: a retry of the call then acts once. */
    idempotencyKey?: string;
    signal?: AbortSignal;
  };

/** What a call answers: the `data` of its 200. */
export type CallResult<K extends OperationId> = operations[K] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

type Call<K extends OperationId> =
  object extends CallInput<K>
    ? (input?: CallInput<K>) => Promise<CallResult<K>>
    : (input: CallInput<K>) => Promise<CallResult<K>>;

/** One method per operation of the API, named by its operation id. */
export type OperationCalls = { [K in OperationId]: Call<K> };
