import mongoose, { type Connection } from 'mongoose';

/**
 * Commands fail at once while the server is away instead of queueing in memory: the ingress must answer 503
 * without having accepted anything, and a worker must hand its job back to be retried.
 */
export async function connectMongo(url: string): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    bufferCommands: false,
    autoIndex: false,
    autoCreate: false,
    serverSelectionTimeoutMS: 2000,
    connectTimeoutMS: 2000,
    maxPoolSize: 50,
  });
  await connection.asPromise();
  return connection;
}
