import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalidFields, invalidRequest, unavailable } from '../errors.ts';
import { schemaErrorDetails } from './invalid-request-details.ts';
import { isUnavailableError } from '../infra/unavailable.ts';
import { LockTimeoutError } from '../infra/redis-lock.ts';
import { noSniffHeader } from './no-sniff.ts';

const noSuchFile = new ApiError(404, 'not_found', 'There is nothing at this address.');

const noRoute = (request: FastifyRequest) =>
  new ApiError(404, 'not_found', `There is no route ${request.method} ${request.url.split('?')[0]}.`);

/**
 * An onRequest hook for the routes under a `:projectId` prefix: an empty id (/v1/projects/) names no route, and is
 * answered so before authentication could take it for another project's.
 */
export async function requireProjectInPath(request: FastifyRequest): Promise<void> {
  if ((request.params as { projectId?: string }).projectId === '') throw noRoute(request);
}

/**
 * SDK addresses are called from any web page (CONTRACTS §3): a refusal answered before the SDK's CORS hook could run
 * (an unknown route, a malformed path, a server draining) must still be readable there, or the page sees only a
 * network error and cannot tell a retry would do. A matched route's errors carry what that hook decided for the
 * project's origins.
 */
export function letSdkPagesRead(request: FastifyRequest, reply: FastifyReply): void {
  if (request.url.startsWith('/v1/sdk/') && !reply.hasHeader('access-control-allow-origin'))
    reply.header('access-control-allow-origin', '*');
}

function sendUnroutedRefusal(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  letSdkPagesRead(request, reply);
  return sendApiError(reply, error);
}

function toApiError(error: FastifyError): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.validation) return invalidFields(schemaErrorDetails(error));
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidRequest('The body is empty; send a JSON object.');
    default:
      break;
  }
  if (error.statusCode === 400 || error instanceof SyntaxError)
    return invalidRequest(`The body is not valid JSON: ${error.message}`);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // A plugin's refusal, such as the static files' 403 for a path that climbs out of their folder: nothing is there.
    if (error.statusCode === 403 || error.statusCode === 404) return noSuchFile;
    return new ApiError(error.statusCode, 'invalid_request', error.message);
  }
  // CONTRACTS §1 has no conflict status; a lock held too long by another process (a segment's event counts still
  // being flushed, flushCounts) is, to the caller, a store that cannot answer now, and a 503 tells a
  // client built to the contract to retry.
  if (error instanceof LockTimeoutError) {
    return unavailable(
      'The data this request needs is being updated by another process at this moment; nothing was accepted. Retry shortly.',
    );
  }
  if (isUnavailableError(error)) {
    return unavailable(
      'The service cannot reach its database or queue right now; nothing was accepted. Retry shortly.',
    );
  }
  return null;
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.statusCode).headers(error.headers);
  const body: { code: string; message: string; details?: unknown } = { code: error.code, message: error.message };
  if (error.details && error.details.length > 0) body.details = error.details;
  return reply.send({ error: body });
}

/** Maximum length of one path parameter; device ids may be 128 characters (CONTRACTS §3). */
export const maxPathParamLength = 256;

/**
 * Errors the router raises before any route runs, which Fastify otherwise answers in its own body format: a path
 * segment that is not valid percent-encoding, or a parameter longer than maxPathParamLength.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a path parameter is longer than ${maxPathParamLength} characters`
      : 'a path segment is not valid percent-encoded UTF-8';
  // The router refuses before any hook runs.
  reply.header(noSniffHeader.name, noSniffHeader.value);
  return sendUnroutedRefusal(
    request,
    reply,
    invalidRequest('The URL is not valid; see details.', [{ path: '/path', message }]),
  );
}

const clientErrors: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'invalid_request', message: 'The request did not arrive in time.' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'request_header_too_large',
    message: 'The request headers are larger than the server takes (16 KiB); send long values in the body.',
  },
};

/**
 * A request Node's HTTP parser refused before Fastify saw it (headers too large, a malformed header, conflicting
 * lengths): answered in the error format of every other answer, and the connection closed, as Node itself does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = clientErrors[error.code ?? ''] ?? {
    status: 400,
    code: 'invalid_request',
    message: 'The request is not valid HTTP/1.1.',
  };
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${noSniffHeader.name}: ${noSniffHeader.value}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError) {
      if (apiError.statusCode === 503) request.log.warn({ err: error }, 'backing store unavailable');
      return sendApiError(reply, apiError);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendApiError(
      reply,
      new ApiError(500, 'internal', 'Something went wrong on our side; the request may be retried.'),
    );
  });
  app.setNotFoundHandler((request, reply) => sendUnroutedRefusal(request, reply, noRoute(request)));
}
