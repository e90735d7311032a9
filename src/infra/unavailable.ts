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
 * set `beforeHandshake`. A bulk write (insertMany) wraps such an error in a MongoBulkWriteError, which copies its fields
 * but not its name or class; a bulk write's own failures (duplicate keys, validation) carry no such field.
 */
function isMongoNetworkError(error: Error): boolean {
  return 'beforeHandshake' in error;
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
  return redisUnavailablePatterns.some((pattern) => pattern.test(error.message));
}
