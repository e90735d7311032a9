import mongoose from 'mongoose';
import { onTestFinished } from 'vitest';
import { createModels } from '../../src/models/index.ts';

/**
 * Models over a connection of the test's own whose inserts into `collection` it sees, as each insert's number of
 * documents in order. The connection closes when the test finishes.
 */
export async function modelsCountingInserts(mongoUrl: string, collection: string) {
  const connection = mongoose.createConnection(mongoUrl, { monitorCommands: true });
  onTestFinished(() => connection.close());
  await connection.asPromise();
  const inserts: number[] = [];
  connection.getClient().on('commandStarted', (event) => {
    if (event.commandName === 'insert' && event.command.insert === collection)
      inserts.push(event.command.documents.length);
  });
  return { models: createModels(connection), inserts };
}
