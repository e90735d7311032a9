export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error whose status, code and message are meant for the customer (CONTRACTS §1). */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const invalidRequest = (message: string, details?: ErrorDetail[]) =>
  new ApiError(400, 'invalid_request', message, { details });
/** A request refused for the fields its details name. */
export const invalidFields = (details: ErrorDetail[]) =>
  invalidRequest('The request is not valid; see details for each field.', details);
/** An Idempotency-Key sent again within its window with another body: neither request's work may stand for the other. */
export const idempotencyKeyReused = () =>
  new ApiError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was sent with another request within 24 hours; use a new key for a new request.',
    { details: [{ path: '/headers/idempotency-key', message: 'was sent with another body within its window' }] },
  );
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const unavailable = (message: string) =>
  new ApiError(503, 'unavailable', message, { headers: { 'retry-after': '1' } });
