import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDeliveryHarness } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const { harness } = useDeliveryHarness({ queues: ['send', 'deliver', 'tag-update', 'event-ingest'] });

interface Block {
  language: string;
  code: string;
}

/** The fenced code blocks of a Markdown text, in order. */
function codeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1]!,
    code: match[2]!,
  }));
}

/** The section of a Markdown text under a `## ` heading, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/**
 * The shell a new user pastes into, next to `npm start`: the system's npm and node (the repository's own Node 24
 * only through npm and npx, as for them), and the commands' database and keys pointed at the test's services.
 */
function userShellEnvironment(): NodeJS.ProcessEnv {
  const { config } = harness;
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  return {
    ...process.env,
    PATH: path,
    MONGODB_URL: config.mongoUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    CREDENTIALS_KEY: config.credentialsKey.toString('hex'),
    LOG_LEVEL: 'silent',
  };
}

/** The documents' addresses of a fresh `npm start`, turned into this test's ingress and sandbox. */
function onTestPorts(code: string): string {
  return code
    .replaceAll('http://127.0.0.1:3000', harness.ingress.baseUrl)
    .replaceAll('http://127.0.0.1:4100', `http://127.0.0.1:${harness.sandbox.port}`);
}

/**
 * curl fails on an HTTP error as it would be noticed in a terminal, and each answer ends its line; a block's end is
 * marked so that a failure names its block, and each command is traced to stderr as run, its variables expanded, so
 * that a failure shows the very command that failed.
 */
const prelude = 'set -xeuo pipefail\ncurl() { command curl --fail-with-body --silent --show-error "$@"; echo; }\n';

describe('the first hour, as the README and the API guide tell it', () => {
  let readme = '';
  let guide = '';
  beforeAll(async () => {
    readme = section(await readFile(join(root, 'README.md'), 'utf8'), 'A first project, device and read');
    guide = await readFile(join(root, 'docs/api-guide.md'), 'utf8');
    // The client example imports the package as built on install; build it from the source under test.
    await run('npm', ['run', '-s', 'build', '-w', '@pushengine/client'], { cwd: root });
  }, 120_000);

  it("runs the first project's and the guide's shell examples, as pasted and in order, in one shell", async () => {
    const readmeBlocks = codeBlocks(readme);
    const clientExample = readmeBlocks.find((block) => block.language === 'ts');
    expect(clientExample, 'the README shows the typed client beside curl').toBeDefined();
    const shellBlocks = [...readmeBlocks, ...codeBlocks(guide)].filter((block) => block.language === 'sh');
    expect(shellBlocks.length).toBeGreaterThanOrEqual(7);

    await mkdir(join(root, '.state'), { recursive: true });
    const directory = await mkdtemp(join(root, '.state', 'docs-examples-'));
    try {
      await writeFile(join(directory, 'first-send.ts'), onTestPorts(clientExample!.code));
      const script =
        prelude +
        shellBlocks.map((block, index) => `${onTestPorts(block.code)}\necho "== block ${index + 1} done"\n`).join('');
      const result = await run('bash', ['-c', script], {
        cwd: directory,
        env: userShellEnvironment(),
        timeout: 120_000,
      }).catch((error: { stdout: string; stderr: string; code: number }) => error);
      const blocksDone = (result.stdout.match(/^== block \d+ done$/gm) ?? []).length;
      const failure = `block ${blocksDone + 1} of ${shellBlocks.length} failed:\n${
        shellBlocks[blocksDone]?.code ?? ''
      }\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
      expect(blocksDone, failure).toBe(shellBlocks.length);

      expect(result.stdout).toContain('"userId":"alice@example.com"');
      await eventually(() => expect(harness.sandbox.deliveries('fcm-token').length).toBeGreaterThanOrEqual(1));
      expect(result.stdout, 'the client example ran to its refusal').toContain('404 not_found');
      expect(result.stdout).toContain('"success":1');
      expect(result.stdout).toContain('"title":"Hi Alice"');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 180_000);
});
