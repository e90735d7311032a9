/**
 * npm run fuzz [-- --max-examples 50 --minutes 15 --only <path regex>]
 * Schemathesis against /openapi.json of a local ingress (with the tag-update worker, whose answer PATCH /users/tags
 * waits for), with a team project's real keys: the server API key on /v1/projects, the client key on /v1/sdk.
 * Checks: no 5xx, every answer as documented (status, content type, schema; errors in the shared ErrorResponse
 * schema) and every error body in the CONTRACTS §1 format with the code of its status (error_contract.py).
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stateDir } from '../../src/config.ts';
import { createProject, type CreatedProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from '../bench/bench-environment.ts';
import { ensureSchemathesis } from './schemathesis-install.ts';

const { values } = parseArgs({
  options: {
    'max-examples': { type: 'string', default: '50' },
    minutes: { type: 'string', default: '15' },
    seed: { type: 'string' },
    only: { type: 'string' },
  },
});
const log = (line: string) => process.stderr.write(`[fuzz] ${line}\n`);
const fuzzDir = resolve(stateDir, 'fuzz');

const checks = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'error_body_follows_contract',
];

function tomlString(value: string): string {
  return JSON.stringify(value);
}

const knownDeviceId = 'fuzz-device';

/**
 * Always the fuzz project's id, but for key rotation, which has a project of its own: each success replaces both keys.
 * Operations that read a device's own records get a registered device, so their inputs reach the code behind the 404
 * of an unknown device; the other device routes fuzz the id itself. The first block matching an operation sets its
 * parameters. The keys are set by the project_keys hooks, from the environment of the run (projectKeysEnv).
 */
function schemathesisConfig(project: CreatedProject, rotated: CreatedProject, webhookId: string): string {
  const block = (pathRegex: string, parameters: Record<string, string>) =>
    [
      '[[operations]]',
      `include-path-regex = ${tomlString(pathRegex)}`,
      `parameters = { ${Object.entries(parameters)
        .map(([name, value]) => `${tomlString(name)} = ${tomlString(value)}`)
        .join(', ')} }`,
      '',
    ].join('\n');
  const projectOnly = { 'path.projectId': project.projectId };
  const withDevice = { ...projectOnly, 'path.deviceId': knownDeviceId };
  const withWebhook = { ...projectOnly, 'path.id': webhookId };
  return [
    `hooks = ${tomlString(resolve(import.meta.dirname, 'hooks.py'))}`,
    '',
    block('/keys/rotate$', { 'path.projectId': rotated.projectId }),
    block('/notification-history$', withDevice),
    block('^/v1/sdk/.*/events$', withDevice),
    block('^/v1/sdk/.*/in-app-messages$', withDevice),
    block('^/v1/projects/[^/]+/webhooks/', withWebhook),
    block('^/v1/projects/(?!.*/keys/rotate$)', projectOnly),
    block('^/v1/sdk/', projectOnly),
  ].join('\n');
}

/** The keys the project_keys hooks start from; the rotation project's follows each rotation's answer from there. */
function projectKeysEnv(project: CreatedProject, rotated: CreatedProject): NodeJS.ProcessEnv {
  return {
    FUZZ_API_KEY: project.apiKey,
    FUZZ_CLIENT_KEY: project.clientKey,
    FUZZ_ROTATION_API_KEY: rotated.apiKey,
  };
}

async function registerKnownDevice(baseUrl: string, project: CreatedProject): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/sdk/projects/${project.projectId}/devices/${knownDeviceId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${project.clientKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'android', pushToken: 'fuzz-token', userId: 'fuzz-user', tags: { plan: 'pro' } }),
  });
  if (!response.ok)
    throw new Error(`registering ${knownDeviceId} answered ${response.status}: ${await response.text()}`);
}

/**
 * An endpoint for the operations on one webhook, so that their inputs reach the code behind the 404 of an unknown one
 * (the webhook_endpoints hooks replace it once a DELETE removes it).
 */
async function createKnownWebhook(baseUrl: string, project: CreatedProject): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://hooks.example.com/fuzz', events: ['message.failed'] }),
  });
  if (!response.ok) throw new Error(`creating the fuzz webhook answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The webhook_endpoints hooks create the next endpoint when a DELETE removes the known one. */
function knownWebhookEnv(baseUrl: string, project: CreatedProject, webhookId: string): NodeJS.ProcessEnv {
  return { FUZZ_BASE_URL: baseUrl, FUZZ_PROJECT_ID: project.projectId, FUZZ_WEBHOOK_ID: webhookId };
}

function runSchemathesis(
  executable: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<number> {
  return new Promise((done, fail) => {
    // Schemathesis keeps its example cache in the working directory: the state directory, not the repository.
    const child = spawn(executable, args, { stdio: 'inherit', cwd: fuzzDir, env: { ...process.env, ...env } });
    const timer = setTimeout(() => {
      log(`schemathesis still running after ${timeoutMs / 60_000} min; stopping it`);
      child.kill('SIGTERM');
    }, timeoutMs);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      done(code ?? (signal === null ? 1 : 124));
    });
  });
}

const schemathesis = await ensureSchemathesis(fuzzDir, log);
const bench = await openBenchEnvironment('fuzz');
let exitCode = 1;
try {
  // Webhook URLs on any host, as the schema can say: whether a host is public is no property of the URL's text.
  await bench.startIngress({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  bench.spawnProcess('worker-tag-update');
  const { baseUrl } = bench;
  const project = await createProject(bench.models, { name: 'fuzz', plan: 'team' });
  const rotated = await createProject(bench.models, { name: 'fuzz-key-rotation', plan: 'team' });
  await registerKnownDevice(baseUrl, project);
  const webhookId = await createKnownWebhook(baseUrl, project);

  await mkdir(fuzzDir, { recursive: true });
  const configFile = resolve(fuzzDir, 'schemathesis.toml');
  await writeFile(configFile, schemathesisConfig(project, rotated, webhookId), { mode: 0o600 });
  const args = [
    '--config-file',
    configFile,
    'run',
    `${baseUrl}/openapi.json`,
    '--url',
    baseUrl,
    '--checks',
    checks.join(','),
    '--max-examples',
    values['max-examples'],
    '--phases',
    'examples,coverage,fuzzing',
    // One worker: CPython 3.11's ast module is not thread-safe ("AST constructor recursion depth mismatch"), and
    // schemathesis parses lambdas with it from every worker thread.
    '--workers',
    '1',
    '--request-timeout',
    '30',
    '--report',
    'junit',
    '--report-dir',
    resolve(fuzzDir, 'report'),
    '--no-color',
    ...(values.seed === undefined ? [] : ['--seed', values.seed]),
    ...(values.only === undefined ? [] : ['--include-path-regex', values.only]),
  ];
  const env = {
    ...projectKeysEnv(project, rotated),
    ...knownWebhookEnv(baseUrl, project, webhookId),
  };
  exitCode = await runSchemathesis(schemathesis, args, env, Number(values.minutes) * 60_000);
} finally {
  await bench.close();
}
process.exit(exitCode);
