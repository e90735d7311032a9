/**
 * node tools/bench/history-ceiling-client.ts --mongodb-url <url with database> --project <id> --documents <n>
 * The history-insert ceiling (historyInsertCeiling: batches of 100, 16 in flight) in a process of its own, so that
 * the joint ceiling's two sides run apart from the bench's process, which hosts the sandbox as during a send. Prints
 * one JSON line: the Ceiling.
 */
import { parseArgs } from 'node:util';
import { connectMongo } from '../../src/infra/mongo.ts';
import { historyInsertCeiling } from './database-ceilings.ts';

const { values } = parseArgs({
  options: { 'mongodb-url': { type: 'string' }, project: { type: 'string' }, documents: { type: 'string' } },
});
const connection = await connectMongo(values['mongodb-url']!);
try {
  const ceiling = await historyInsertCeiling(connection.db!, values.project!, {
    concurrency: 16,
    operations: Math.ceil(Number(values.documents) / 100),
  });
  process.stdout.write(`${JSON.stringify(ceiling)}\n`);
} finally {
  await connection.close();
}
