import { rotateKeys } from '../../src/projects/rotate-keys.ts';
import { printResult, runCli, readOptions } from './cli-context.ts';
import { waitForRedis } from '../../src/infra/redis.ts';

const values = readOptions('usage: npm run project:rotate-keys -- --project <id> [--json]', {
  project: { type: 'string' },
  json: { type: 'boolean', default: false },
});

await runCli(async ({ models, keyCache, redis }) => {
  if (!values.project) throw new Error('--project is required');
  await waitForRedis(redis).catch((error: Error) => {
    throw new Error(
      `cannot reach Redis to revoke cached keys (${error.message}); start the service with npm start or set REDIS_URL`,
    );
  });
  printResult({ ...(await rotateKeys(models, keyCache, values.project)) }, values.json);
});
