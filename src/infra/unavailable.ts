const mongoUnavailableNames = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  // Seen while a process shuts down with requests still in flight: the client is going away, the request can be retried.
  'MongoClientClosedError',
  'MongoPoolClosedError',
  'MongoExpiredSessionError',
  'MongoServerClosedError',
  // A command past its time limit (timeoutMS), which a URL may set.
  'MongoOperationTimeoutError',
]);

/**
 * What a server answers while it shuts down, starts, steps down or cannot reach its peers: the codes the driver's
 * retryable reads and writes take as "try again on a server that answers" (the MongoDB specifications' list). A
 * restarted server answers them for a while, a command in flight at a shutdown gets one.
 */
const mongoUnavailableCodes = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10058, // LegacyNotPrimary
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** The same answers from a server too old to give a code. */
const mongoUnavailableMessages = [/not master|not primary/i, /node is recovering/i];

/** The code of a server's answer, or of its write concern's failure (a write applied but not yet durable). */
function mongoCodeOf(error: Error): number | undefined {
  const { code, result } = error as { code?: unknown; result?: { writeConcernError?: { code?: unknown } } };
  const raw = typeof code === 'number' ? code : result?.writeConcernError?.code;
  return typeof raw === 'number' ? raw : undefined;
}

function isMongoServerUnavailable(error: Error): boolean {
  if (!error.name.startsWith('Mongo')) return false;
  const code = mongoCodeOf(error);
  if (code !== undefined) return mongoUnavailableCodes.has(code);
  return mongoUnavailableMessages.some((pattern) => pattern.test(error.message));
}

/**
 * A MongoNetworkError or one of its subclasses (a connection lost mid-operation, a pool cleared after one), all of which
 * set `beforeHandshake`, whichever copy of the driver threw it.
 */
function isMongoNetworkError(error: Error): boolean {
  return 'beforeHandshake' in error;
}

/** A socket's own failure as Node raises it, which a driver may pass on unwrapped: EPIPE once the server closed its end. */
const socketUnavailableCodes = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);

function isSocketError(error: Error): boolean {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && socketUnavailableCodes.has(code);
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
  if (isMongoNetworkError(error) || isMongoServerUnavailable(error) || isSocketError(error)) return true;
  // What the driver's wrapper (a bulk write, an error of its own) says it met.
  if (isUnavailableError(bulkWriteCause(error) ?? (error.name.startsWith('Mongo') ? error.cause : undefined)))
    return true;
  return redisUnavailablePatterns.some((pattern) => pattern.test(error.message));
}
