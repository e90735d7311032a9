import { join } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createFailFastRedis } from '../../src/infra/redis.ts';
import { createModels } from '../../src/models/index.ts';
import { KeyCache } from '../../src/keys/key-cache.ts';
import { projectsSealedWithAnotherKey } from '../../src/credentials/stored-secrets-key.ts';
import type { Models } from '../../src/models/index.ts';
import { loadConfig, stateDir, type Config } from '../../src/config.ts';

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

/**
 * Before a command stores a secret: a warning when this command's credentials key cannot open those already stored,
 * for what it stores would then be lost to the services. It goes on, since a key that was lost leaves no other way
 * to store new secrets.
 */
export async function warnOfAnotherCredentialsKey(models: Models, config: Config): Promise<void> {
  const other = await projectsSealedWithAnotherKey(models, config.credentialsKey);
  if (other === null) return;
  const origin = process.env.CREDENTIALS_KEY ? 'CREDENTIALS_KEY' : join(stateDir, 'credentials.key');
  process.stderr.write(
    `warning: this command's credentials key (${origin}) cannot open the secrets stored for project ${other} nor for any of the projects before it, so the services likely run with another CREDENTIALS_KEY or STATE_DIR and could not open what it stores now either (every Web Push and live push of the project would fail): run it with theirs\n`,
  );
}

export function printResult(result: Record<string, unknown>, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${String(value)}\n`);
}
