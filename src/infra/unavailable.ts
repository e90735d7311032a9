const mongoUnavailableNames = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  // Seen while a process shuts down with requests still in flight: the client is going away, the request can be retried.
  'MongoClientClosedError',
  'MongoPoolClosedError',
  'MongoExpiredSessionError',
]);

/**
 * A MongoNetworkError or one of its subclasses (a connection lost mid-operation, a pool cleared after one), all of which
 * set `beforeHandshake`, whichever copy of the driver threw it.
 */
function isMongoNetworkError(error: Error): boolean {
  return 'beforeHandshake' in error;
}

/**
 * A bulk write (insertMany, bulkWrite) wraps every error of the driver's own, a network error or a server selection
 * that timed out, in a MongoBulkWriteError that keeps it as `errorResponse`; its own failures (duplicate keys,
 * validation) keep a plain object there.
 */
function bulkWriteCause(error: Error): unknown {
  if (error.name !== 'MongoBulkWriteError') return undefined;
  const cause = (error as { errorResponse?: unknown }).errorResponse;
  return cause instanceof Error ? cause : undefined;
}

const redisUnavailablePatterns = [
  /enableOfflineQueue/,
  /Connection is closed/,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/,
  /MaxRetriesPerRequest/i,
  /before initial connection is complete/,
  /Command timed out/,
];

/** True when the error means a backing store is unreachable rather than that the request or the code is wrong. */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (mongoUnavailableNames.has(error.name)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  if (isMongoNetworkError(error)) return true;
  const cause = bulkWriteCause(error);
  if (cause) return isUnavailableError(cause);
  return redisUnavailablePatterns.some((pattern) => pattern.test(error.message));
}
