import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { unseal } from '../../src/credentials/cipher.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const { config, ingress } = useIngress();

async function cli(script: string, args: string[], credentialsKey = config.credentialsKey) {
  const env = {
    ...process.env,
    MONGODB_URL: config.mongoUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    CREDENTIALS_KEY: credentialsKey.toString('hex'),
    LOG_LEVEL: 'silent',
  };
  return run(process.execPath, [join(root, 'bin/project', script), ...args], { env, cwd: root }).catch(
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error, failed: true }),
  );
}

/** A PKCS#8 PEM private key as each gateway's credentials hold one: RSA in a service account, P-256 in a .p8. */
function signingKeyPem(type: 'rsa' | 'ec'): string {
  const privateKeyEncoding = { type: 'pkcs8', format: 'pem' } as const;
  const publicKeyEncoding = { type: 'spki', format: 'pem' } as const;
  return type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding, publicKeyEncoding }).privateKey
    : generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding, publicKeyEncoding }).privateKey;
}

const pemBody = (pem: string) => pem.split('\n')[1]!;

async function createWithCli(plan: string) {
  const { stdout } = await cli('create.ts', ['--name', 'Shop', '--plan', plan, '--json']);
  return JSON.parse(stdout.trim()) as { projectId: string; apiKey: string; clientKey: string; plan: string };
}

// Each test but one works on a project of its own, and each CLI run is a process start: they run together, so each
// is given the time they take together on a loaded machine.
describe.concurrent('project CLI (CONTRACTS §2)', { timeout: 120_000 }, () => {
  it('creates a project and prints one JSON object whose keys work', async () => {
    const created = await createWithCli('team');
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'clientKey', 'plan', 'projectId']);
    expect(created.plan).toBe('team');
    const register = await ingress.request('PUT', `/v1/sdk/projects/${created.projectId}/devices/d`, {
      key: created.clientKey,
      body: { platform: 'web', pushToken: 't' },
    });
    expect(register.status).toBe(200);
    expect(
      (await ingress.request('GET', `/v1/projects/${created.projectId}/devices/d`, { key: created.apiKey })).status,
    ).toBe(200);
  });

  // Alone: which project the warning names depends on the projects created before it.
  it.sequential('warns when its credentials key cannot open the secrets already stored, as the services would not open its own', async () => {
    const stored = await createWithCli('team');
    const mismatched = await cli('create.ts', ['--name', 'Other key', '--json'], randomBytes(32));
    expect(mismatched.stderr).toContain(
      `warning: this command's credentials key (CREDENTIALS_KEY) cannot open the secrets stored for project ${stored.projectId}`,
    );
    expect(JSON.parse(mismatched.stdout.trim()).plan).toBe('starter');
    // The one project stored with another key makes the right key no suspect.
    const matched = await cli('create.ts', ['--name', 'Same key', '--json']);
    expect(matched.stderr).toBe('');
  });

  it('refuses an unknown plan with a message and a non-zero exit', async () => {
    const result = await cli('create.ts', ['--name', 'Shop', '--plan', 'gold', '--json']);
    expect(result).toMatchObject({ failed: true, code: 1 });
    expect(result.stderr).toContain('--plan must be one of starter, team, business');
  });

  it('rotates keys: the old ones are refused at once, the new ones work', async () => {
    const created = await createWithCli('starter');
    const path = `/v1/projects/${created.projectId}/devices/d`;
    expect((await ingress.request('GET', path, { key: created.apiKey })).status).toBe(404);
    const { stdout } = await cli('rotate-keys.ts', ['--project', created.projectId, '--json']);
    const rotated = JSON.parse(stdout.trim());
    expect(rotated.projectId).toBe(created.projectId);
    expect(rotated.apiKey).not.toBe(created.apiKey);
    expect((await ingress.request('GET', path, { key: created.apiKey })).status).toBe(401);
    expect((await ingress.request('GET', path, { key: rotated.apiKey })).status).toBe(404);
  });

  it('stores push credentials encrypted with CREDENTIALS_KEY', async () => {
    const created = await createWithCli('business');
    const dir = await mkdtemp(join(tmpdir(), 'credentials-'));
    const fcmKey = signingKeyPem('rsa');
    const apnsKey = signingKeyPem('ec');
    const serviceAccount = {
      project_id: 'my-app',
      client_email: 'push@my-app.iam.gserviceaccount.com',
      private_key: fcmKey,
    };
    await writeFile(join(dir, 'sa.json'), JSON.stringify(serviceAccount));
    await writeFile(join(dir, 'AuthKey.p8'), apnsKey);
    const result = await cli('credentials.ts', [
      '--project',
      created.projectId,
      '--fcm-service-account',
      join(dir, 'sa.json'),
      '--apns-key',
      join(dir, 'AuthKey.p8'),
      '--apns-key-id',
      'KEY123',
      '--apns-team-id',
      'TEAM42',
      '--apns-topic',
      'com.example.app',
      '--json',
    ]);
    expect(JSON.parse(result.stdout.trim())).toEqual({ projectId: created.projectId, fcm: true, apns: true });

    const stored = await ingress.context.mongo.db!.collection('projects').findOne({ _id: created.projectId as never });
    const serialized = JSON.stringify(stored);
    for (const secret of [pemBody(fcmKey), pemBody(apnsKey), 'TEAM42']) expect(serialized).not.toContain(secret);
    expect(JSON.parse(unseal(stored!.credentials.fcm, config.credentialsKey))).toEqual(serviceAccount);
    expect(JSON.parse(unseal(stored!.credentials.apns, config.credentialsKey))).toMatchObject({
      keyId: 'KEY123',
      teamId: 'TEAM42',
      topic: 'com.example.app',
      production: false,
    });
  });

  it('refuses keys no gateway would take, stores nothing, and says which credentials a project holds', async () => {
    const created = await createWithCli('team');
    const apnsOptions = ['--apns-key-id', 'KEY123', '--apns-team-id', 'TEAM42', '--apns-topic', 'com.example.app'];
    // A directory each, so that the refused keys are tried at once.
    const setApns = async (key: string) => {
      const dir = await mkdtemp(join(tmpdir(), 'credentials-'));
      await writeFile(join(dir, 'AuthKey.p8'), key);
      return cli('credentials.ts', [
        '--project',
        created.projectId,
        '--apns-key',
        join(dir, 'AuthKey.p8'),
        ...apnsOptions,
        '--json',
      ]);
    };
    const setFcm = async (privateKey: string) => {
      const dir = await mkdtemp(join(tmpdir(), 'credentials-'));
      await writeFile(
        join(dir, 'sa.json'),
        JSON.stringify({ project_id: 'p', client_email: 'e@p.example', private_key: privateKey }),
      );
      return cli('credentials.ts', [
        '--project',
        created.projectId,
        '--fcm-service-account',
        join(dir, 'sa.json'),
        '--json',
      ]);
    };

    const [garbage, rsaForApns, ecForFcm] = await Promise.all([
      setApns('not a key'),
      setApns(signingKeyPem('rsa')),
      setFcm(signingKeyPem('ec')),
    ]);
    expect(garbage).toMatchObject({ failed: true, code: 1 });
    expect(garbage.stderr).toMatch(
      /^error: the APNs key .*AuthKey\.p8 is not usable: it is not a private key in PEM form/,
    );
    expect(rsaForApns.stderr).toMatch(/is not usable: it is an rsa key, not the P-256 EC key/);
    expect(ecForFcm.stderr).toMatch(
      /^error: the private_key of the service account file .*sa\.json is not usable: it is an ec key, not RSA/,
    );
    const stored = await ingress.context.models.Project.findById(created.projectId).lean();
    expect([stored?.credentials?.fcm, stored?.credentials?.apns]).toEqual([null, null]);

    expect(JSON.parse((await setFcm(signingKeyPem('rsa'))).stdout)).toEqual({
      projectId: created.projectId,
      fcm: true,
      apns: false,
    });
    expect(JSON.parse((await setApns(signingKeyPem('ec'))).stdout)).toEqual({
      projectId: created.projectId,
      fcm: true,
      apns: true,
    });
  });

  it('refuses an incomplete APNs key with a message naming what is missing', async () => {
    const created = await createWithCli('team');
    const dir = await mkdtemp(join(tmpdir(), 'credentials-'));
    await writeFile(join(dir, 'AuthKey.p8'), 'key');
    const result = await cli('credentials.ts', ['--project', created.projectId, '--apns-key', join(dir, 'AuthKey.p8')]);
    expect(result).toMatchObject({ failed: true, code: 1 });
    expect(result.stderr).toMatch(/keyId/);
  });
  it('prints export lines with --env that a shell evals into PROJECT_ID, API_KEY and CLIENT_KEY, and they work', async () => {
    const { stdout } = await cli('create.ts', ['--name', "Bob's shop", '--plan', 'team', '--env']);
    const { stdout: evaluated } = await run('bash', [
      '-c',
      `eval "$1"; echo "$PROJECT_ID $API_KEY $CLIENT_KEY"`,
      '_',
      stdout,
    ]);
    const [projectId, apiKey, clientKey] = evaluated.trim().split(' ') as [string, string, string];
    const read = await ingress.request('GET', `/v1/projects/${projectId}`, { key: apiKey });
    expect(read.body.data).toMatchObject({ id: projectId, name: "Bob's shop", plan: 'team' });
    const register = await ingress.request('PUT', `/v1/sdk/projects/${projectId}/devices/d`, {
      key: clientKey,
      body: { platform: 'web', pushToken: 't' },
    });
    expect(register.status).toBe(200);
  });

  it('answers a mistake in the options with one line and the usage, and --help with the usage alone', async () => {
    const [help, ...mistakes] = await Promise.all([
      cli('origins.ts', ['--help']),
      ...(
        [
          ['rotate-keys.ts', ['--projct', 'x']],
          ['create.ts', ['--name', 'x', '--plan']],
          ['delivery-rate.ts', ['--project']],
        ] as const
      ).map(([script, args]) => cli(script, [...args])),
    ]);
    for (const result of mistakes) {
      expect(result).toMatchObject({ failed: true, code: 1 });
      const [error, usage, ...rest] = result.stderr.trimEnd().split('\n');
      expect(error).toMatch(/^error: /);
      expect(usage).toMatch(/^usage: npm run project:/);
      expect(rest).toEqual([]);
    }
    expect(help.stdout).toBe(
      'usage: npm run project:origins -- --project <id> (--allow <origin,origin,...> | --any) [--json]\n',
    );
  });

  it('sets and clears a project delivery rate', async () => {
    const created = await createWithCli('team');
    const rateOf = async () =>
      (await ingress.context.models.Project.findById(created.projectId).lean())?.deliveryRatePerSecond;
    const set = await cli('delivery-rate.ts', ['--project', created.projectId, '--per-second', '250', '--json']);
    expect(JSON.parse(set.stdout.trim())).toEqual({ projectId: created.projectId, deliveryRatePerSecond: 250 });
    expect(await rateOf()).toBe(250);
    await cli('delivery-rate.ts', ['--project', created.projectId, '--per-second', 'unlimited']);
    expect(await rateOf()).toBeNull();
    const [missing, ...refused] = await Promise.all([
      cli('delivery-rate.ts', ['--project', 'missing', '--per-second', '5']),
      ...['-3', '1e-320'].map((rate) =>
        cli('delivery-rate.ts', ['--project', created.projectId, `--per-second=${rate}`]),
      ),
    ]);
    for (const result of refused)
      expect(result).toMatchObject({
        failed: true,
        code: 1,
        stderr: 'error: --per-second must be a number of messages of at least 0.001, or "unlimited"\n',
      });
    expect(await rateOf()).toBeNull();
    expect(missing).toMatchObject({ failed: true, code: 1 });
  });
});
