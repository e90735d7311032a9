import type { operations } from './generated/openapi.ts';
import type { operationRoutes } from './generated/operation-routes.ts';

export type OperationId = keyof typeof operationRoutes & keyof operations;

type Parameters<O> = O extends { parameters: infer P } ? P : never;
/** The path parameters besides the project id, which the client holds. */
type PathParameters<O> = Omit<Parameters<O> extends { path: infer T } ? T : object, 'projectId'>;
type QueryParameters<O> = Parameters<O> extends { query?: infer T } ? Exclude<T, undefined> : never;
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type RequestBody<O> = O extends { requestBody?: infer R } ? Content<Exclude<R, undefined>> : never;
/** The media types a body may be sent in when it is a file (NDJSON, CSV) rather than JSON. */
type FileMediaType<O> = O extends { requestBody: { content: infer C } } ? Exclude<keyof C, 'application/json'> : never;

/** A file body: sent as it is, a stream without being read into memory first. */
export type FileBody = string | Uint8Array | Blob | ReadableStream<Uint8Array>;

type PathInput<O> = keyof PathParameters<O> extends never ? object : { path: PathParameters<O> };
type QueryInput<O> = [QueryParameters<O>] extends [never] ? object : { query?: QueryParameters<O> };
type JsonBodyInput<O> = [RequestBody<O>] extends [never]
  ? object
  : O extends { requestBody: unknown }
    ? { body: RequestBody<O> }
    : { body?: RequestBody<O> };
type BodyInput<O> = [FileMediaType<O>] extends [never]
  ? JsonBodyInput<O>
  : { body: FileBody /** The body's media type, e.g. application/x-ndjson. */; contentType: FileMediaType<O> };

/** What a call takes: its path parameters, query and body as the OpenAPI document states them. */
export type CallInput<K extends OperationId> = PathInput<operations[K]> &
  QueryInput<operations[K]> &
  BodyInput<operations[K]> & {
    /** Another project than the client's (with an admin token). */
    projectId?: string;
    /** Made for every call that takes one unless given: a retry of the call then acts once. */
    idempotencyKey?: string;
    signal?: AbortSignal;
    /** A file answer's bytes as they arrive rather than its whole text. */
    as?: 'text' | 'stream';
  };

type Answer<O> = O extends { responses: { 200: { content: infer C } } }
  ? C
  : O extends { responses: { 202: { content: infer C } } }
    ? C
    : never;

/** What a call answers: the `data` of its 200 (or 202). */
export type CallResult<K extends OperationId> =
  Answer<operations[K]> extends { 'application/json': { data: infer D } } ? D : never;

type JsonCall<K extends OperationId> =
  object extends CallInput<K>
    ? (input?: CallInput<K>) => Promise<CallResult<K>>
    : (input: CallInput<K>) => Promise<CallResult<K>>;

/**
 * An answer that is a file (an export, a CSV delivery log) is read whole as text unless `as: 'stream'` asks for its
 * bytes as they arrive. Where the operation answers JSON too, a `format` other than json asks for the file.
 */
type FileQuery<K extends OperationId> = [CallResult<K>] extends [never]
  ? object
  : {
      query: {
        format: Exclude<QueryParameters<operations[K]>['format' & keyof QueryParameters<operations[K]>], 'json'>;
      };
    };
type FileInput<K extends OperationId> = CallInput<K> & FileQuery<K>;
interface FileCall<K extends OperationId> {
  (input: FileInput<K> & { as: 'stream' }): Promise<ReadableStream<Uint8Array>>;
  (...input: object extends FileInput<K> ? [FileInput<K>?] : [FileInput<K>]): Promise<string>;
}
type Call<K extends OperationId> = [Exclude<keyof Answer<operations[K]>, 'application/json'>] extends [never]
  ? JsonCall<K>
  : [CallResult<K>] extends [never]
    ? FileCall<K>
    : FileCall<K> & JsonCall<K>;

/** One method per operation of the API, named by its operation id. */
export type OperationCalls = { [K in OperationId]: Call<K> };
