import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import mongoose from 'mongoose';

/** The part of the driver's internal Connection that this module relies on (mongodb 7.8). */
interface DriverConnection {
  socket: Socket;
  error: Error | null;
  id: number | string;
  address: string;
  writeCommand(command: unknown, options: unknown): Promise<void>;
}

const boundMark = Symbol.for('pushengine.writesEndWithTheirSocket');

/** The driver's Connection class, from the copy of the driver that mongoose itself loads. */
function driverConnectionPrototype(): DriverConnection & { [boundMark]?: true } {
  const requireFromMongoose = createRequire(createRequire(import.meta.url).resolve('mongoose'));
  const { Connection } = requireFromMongoose('mongodb/lib/cmap/connection.js') as {
    Connection?: { prototype: DriverConnection };
  };
  if (typeof Connection?.prototype.writeCommand !== 'function')
    throw new Error('the mongodb driver no longer has Connection.writeCommand: see src/infra/mongo-closed-writes.ts');
  return Connection.prototype;
}

/**
 * A command written to a connection ends, at the latest, when the connection's socket closes. The driver (mongodb 7.8;
 * 7.9 the same) writes a command larger than the socket's buffer and then waits for the socket's 'drain' and for
 * nothing else: when the connection is cleaned up meanwhile (its socketTimeoutMS passes while the server does not read,
 * or it is interrupted), the socket is destroyed without an error, 'drain' never comes, and the command, its pooled
 * connection and every caller queued behind it (MicroBatcher) wait for good, past socketTimeoutMS. Here such a write
 * fails as its connection did, a network error: to the workers an outage, after which the job runs again
 * (storage-outages.ts). Applied once per process.
 */
export function endWritesWithTheirSocket(): void {
  const prototype = driverConnectionPrototype();
  if (prototype[boundMark]) return;
  const write = prototype.writeCommand;
  prototype.writeCommand = async function writeCommandUntilClosed(this: DriverConnection, command, options) {
    const { socket } = this;
    const closedError = () =>
      this.error ?? new mongoose.mongo.MongoNetworkError(`connection ${this.id} to ${this.address} closed`);
    if (socket.closed) throw closedError();
    const { promise: closed, reject } = Promise.withResolvers<never>();
    const onClose = () => reject(closedError());
    socket.once('close', onClose);
    try {
      return await Promise.race([write.call(this, command, options), closed]);
    } finally {
      socket.off('close', onClose);
    }
  };
  prototype[boundMark] = true;
}
