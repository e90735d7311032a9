/** One offending field of a refused request: a JSON pointer into the body, query or path, and what is wrong with it. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** Every error code of CONTRACTS §1; a newer server may answer others, so any string is accepted. */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'idempotency_key_reused'
  | 'request_header_too_large'
  | 'unavailable'
  | 'internal'
  | (string & {});

/** A request the server refused or could not serve, with the `error` of its answer (CONTRACTS §1). */
export class PushEngineError extends Error {
  override readonly name = 'PushEngineError';
  /** The HTTP status; 503 after the retries, if the server stayed unavailable. */
  readonly status: number;
  readonly code: ErrorCode;
  /** The offending fields of a 400 (and of a partly refused events batch); empty when the answer named none. */
  readonly details: ErrorDetail[];

  constructor(status: number, code: ErrorCode, message: string, details: ErrorDetail[] = []) {
    const fields = details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
    super(fields === '' ? message : `${message} (${fields})`);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The error an answer carries; a body that is not the error format (a proxy's page) keeps its status. */
  static fromAnswer(status: number, body: unknown): PushEngineError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    if (typeof error?.code !== 'string')
      return new PushEngineError(status, 'internal', `HTTP ${status} without an error body`);
    const details = Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [];
    return new PushEngineError(status, error.code, String(error.message ?? error.code), details);
  }
}
