export { createPushClient, type PushClient, type PushClientOptions } from './push-client.ts';
export { PushEngineError, type ErrorCode, type ErrorDetail } from './push-engine-error.ts';
export type { RetryPolicy } from './retrying-fetch.ts';
export type { CallInput, CallResult, FileBody, OperationId } from './operation-types.ts';
export type { components, operations, paths } from './generated/openapi.ts';
