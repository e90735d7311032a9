import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createFailFastRedis } from '../../src/infra/redis.ts';
import { createModels } from '../../src/models/index.ts';
import { KeyCache } from '../../src/keys/key-cache.ts';

/**
 * The command's options, read as parseArgs reads them; --help prints `usage`. A mistake in them (an unknown option,
 * one without its value) is one line and exit 1, as every other failure of a project command, not a stack trace.
 */
export function readOptions<const Options extends ParseArgsOptionsConfig>(usage: string, options: Options) {
  if (process.argv.slice(2).includes('--help')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ options }).values;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${usage}\n`);
    process.exit(1);
  }
}

/** Runs one project command with its own connections, printing failures as one line and exiting non-zero. */
export async function runCli(
  task: (context: Awaited<ReturnType<typeof openCliContext>>) => Promise<unknown>,
): Promise<void> {
  let context: Awaited<ReturnType<typeof openCliContext>> | undefined;
  try {
    context = await openCliContext();
    await task(context);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    context?.redis.disconnect();
    await context?.mongo.close();
  }
}

async function openCliContext() {
  const config = loadConfig();
  const mongo = await connectMongo(config.mongoUrl).catch((error: Error) => {
    throw new Error(
      `cannot reach MongoDB at ${config.mongoUrl} (${error.message}); start the service with npm start or set MONGODB_URL`,
    );
  });
  const redis = createFailFastRedis(config.redisUrl);
  redis.on('error', () => undefined);
  const models = createModels(mongo);
  return { config, mongo, redis, models, keyCache: new KeyCache({ redis, models, config }) };
}

export function printResult(result: Record<string, unknown>, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${String(value)}\n`);
}
