import mongoose, { type ConnectOptions, type Connection } from 'mongoose';
import { StartUpError } from './start-up-error.ts';
import { urlSetsOption } from './mongo-url.ts';
import { endWritesWithTheirSocket } from './mongo-closed-writes.ts';

/**
 * The longest a command may wait for the server's answer (the driver's `socketTimeoutMS`, which bounds each round trip,
 * a cursor's every batch on its own, a write larger than the socket's buffer with mongo-closed-writes.ts, and not an
 * idle pooled connection). A server that took a command and never answers it, while it still answers the driver's
 * heartbeat on another connection, would otherwise hold a worker's job active for good, its lock renewed by the live
 * process: the command fails instead as unreachable, and the job runs again a second later (storage-outages.ts). Far
 * above any ordinary round trip on a loaded machine; the one longer answer, a scan gathered before its first batch,
 * has its own bound (scanAnswerBoundMs). A URL that sets `socketTimeoutMS` keeps its own.
 */
export const commandAnswerBoundMs = 60_000;

/**
 * How many times the connection's answer bound a query whose server gathers every match before its first batch may
 * wait for that batch. SecantusDB does so for a segment's cursor in `_id` order: 50 s for 400,000 devices on a quiet
 * machine, growing faster than the audience (docs/performance.md, Send fan-out), where a send at the ordinary bound
 * would fail as unreachable and read it again without end. The later batches keep the ordinary bound.
 */
const scanAnswerBoundFactor = 10;

/** The `socketTimeoutMS` of a gathered scan's first batch on this connection: 0, no bound, stays 0. */
export function scanAnswerBoundMs(connection: Connection): number {
  return scanAnswerBoundFactor * (connection.getClient().options.socketTimeoutMS ?? 0);
}

/**
 * Commands fail at once while the server is away instead of queueing in memory: the ingress must answer 503
 * without having accepted anything, and a worker must hand its job back to be retried.
 *
 * Writes wait for the server's journal (`j: true`): CONTRACTS §1 says a 200 means durable, and with the default
 * `w: 1` a standalone server acknowledges a write before its journal reaches the disk, so a crash in that moment loses
 * it (test/faults/mongo-durability.test.ts). On a replica set `w: majority` already implies the journal. A URL that
 * sets `journal` itself keeps its own choice.
 */
export async function connectMongo(url: string): Promise<Connection> {
  endWritesWithTheirSocket();
  let connection: Connection | undefined;
  try {
    // Inside the try: reading the URL's own options is where a URL that is not a connection string fails.
    connection = mongoose.createConnection(url, connectionOptions(url));
    await connection.asPromise();
  } catch (error) {
    await connection?.close().catch(() => undefined);
    throw startUpErrorOf(error);
  }
  return connection;
}

function connectionOptions(url: string): ConnectOptions {
  return {
    ...(!urlSetsOption(url, 'socketTimeoutMS') && { socketTimeoutMS: commandAnswerBoundMs }),
    bufferCommands: false,
    autoIndex: false,
    autoCreate: false,
    serverSelectionTimeoutMS: 2000,
    // Also the timeout of the driver's heartbeat, which clears the pool and interrupts every query in flight when it
    // expires: it must outlast a server busy with a long scan (docs/performance.md, Segments). A server that is down
    // refuses connections at once, so requests still fail fast then.
    connectTimeoutMS: 10_000,
    maxPoolSize: 50,
    writeConcern: { journal: true },
  };
}

/** What an operator fixes, in one line: a MONGODB_URL that is not a connection string, or no server answering it. */
function startUpErrorOf(error: unknown): unknown {
  const { name, message } = error as Error;
  const firstLine = String(message).split('\n')[0];
  if (name === 'MongoParseError' || name === 'MongoAPIError')
    return new StartUpError(`MONGODB_URL is not a MongoDB connection string: ${firstLine}`);
  if (name === 'MongooseServerSelectionError' || name === 'MongoServerSelectionError')
    return new StartUpError(`no MongoDB server answered MONGODB_URL within 2 s: ${firstLine}`);
  return error;
}
