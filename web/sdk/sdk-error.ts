import type { PushEngineError } from './types.ts';

interface ErrorBody {
  error?: { code?: string; message?: string; details?: Array<{ path: string; message: string }> };
}

/** The service's own error (CONTRACTS §1), as an Error a page can catch and read. */
export function sdkError(status: number, body: unknown): PushEngineError {
  const error = (body as ErrorBody | null)?.error;
  const failure = new Error(error?.message ?? `The push service answered ${status}.`) as PushEngineError;
  failure.name = 'PushEngineError';
  failure.status = status;
  failure.code = error?.code ?? 'unknown';
  if (error?.details) failure.details = error.details;
  return failure;
}
