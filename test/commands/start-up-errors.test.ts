import { createServer } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { findFreePort } from '../../local/services/free-port.ts';
import { startNodeProcess } from '../support/child-processes.ts';

/** A port nothing answers on: bound, never accepting, so a client's connection attempts fail at once. */
const unanswered = 'redis://127.0.0.1:1';

async function startUp(script: string, env: Record<string, string>) {
  const started = startNodeProcess(script, {
    PATH: process.env.PATH,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const { code } = await started.exited;
  return { code, output: started.output() };
}

/** One line naming the setting, and no stack frame: what an operator reads in a deploy log. */
function expectOneLine({ code, output }: { code: number | null; output: string }, names: RegExp) {
  expect(code, output).toBe(1);
  expect(output, output).toMatch(names);
  expect(output, output).not.toMatch(/^\s+at /m);
  expect(output.trim().split('\n'), output).toHaveLength(1);
}

// Each test starts a process of its own and waits for it to exit (those given a Redis that never answers wait the
// 5 s start-up bound): they wait together.
describe.concurrent('a process that cannot start says why in one line naming the setting (CONTRACTS §11)', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ['PORT=abc', { PORT: 'abc' }, /ingress cannot start: PORT must be a port number, got "abc"/],
    ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, /ingress cannot start: LOG_LEVEL must be one of .*, got "loud"/],
    ['PUSH_GATEWAY=other', { PUSH_GATEWAY: 'other' }, /PUSH_GATEWAY must be "sandbox" or "live"/],
    [
      'MONGODB_URL=notaurl',
      { REDIS_URL: '', MONGODB_URL: 'notaurl' },
      /MONGODB_URL is not a MongoDB connection string/,
    ],
    [
      'REDIS_URL that never answers',
      { REDIS_URL: unanswered },
      /Redis did not answer within 5000 ms at .*\(REDIS_URL\)/,
    ],
  ])(
    'the ingress with %s',
    async (_, env, names) => {
      // The ingress reaches Redis before MongoDB; a Redis must answer for the MongoDB case.
      const redis: Record<string, string> = env.REDIS_URL === '' ? { REDIS_URL: inject('redisUrl') } : {};
      expectOneLine(await startUp('src/server.ts', { ...env, ...redis }), names);
    },
    60_000,
  );

  it('the ingress with a PORT another process holds', async () => {
    const holder = createServer();
    const port = await findFreePort();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    try {
      expectOneLine(
        await startUp('src/server.ts', {
          PORT: String(port),
          REDIS_URL: inject('redisUrl'),
          MONGODB_URL: inject('mongoUrl'),
        }),
        new RegExp(`ingress cannot start: PORT ${port} is already in use`),
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it.each([
    [
      'SEND_CONCURRENCY=abc',
      { SEND_CONCURRENCY: 'abc', REDIS_URL: unanswered },
      /SEND_CONCURRENCY must be a positive whole number, got "abc"/,
    ],
    [
      'REDIS_URL that never answers',
      { REDIS_URL: unanswered },
      /worker-send cannot start: Redis did not answer within 5000 ms/,
    ],
  ])(
    'a worker with %s, bounded rather than waiting for ever',
    async (_, env, names) => {
      expectOneLine(await startUp('workers/send.ts', env), names);
    },
    60_000,
  );
});
