const mongoUnavailableNames = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  // A subclass of MongoPoolClearedError with a name of its own: the operations in flight when the pool was cleared.
  'PoolClearedOnNetworkError',
  // Seen while a process shuts down with requests still in flight: the client is going away, the request can be retried.
  'MongoClientClosedError',
  'MongoPoolClosedError',
  'MongoExpiredSessionError',
]);

/**
 * The driver's own message for a connection lost in the middle of an operation. A bulk write (insertMany) wraps that
 * network error in a MongoBulkWriteError, which keeps its message but not its name.
 */
const mongoConnectionLost = /^connection \d+ to \S+ (closed|timed out)/;

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
  if (mongoConnectionLost.test(error.message)) return true;
  return redisUnavailablePatterns.some((pattern) => pattern.test(error.message));
}
