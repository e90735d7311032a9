import { isPlanName, planNames } from '../../src/plans/plans.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { printResult, runCli, readOptions, warnOfAnotherCredentialsKey } from './cli-context.ts';

// --env prints export lines for a shell to eval: eval "$(npm run -s project:create -- --name <name> --env)".
const values = readOptions(
  'usage: npm run project:create -- --name <name> [--plan starter|team|business] [--json | --env]',
  {
    name: { type: 'string' },
    plan: { type: 'string', default: 'starter' },
    json: { type: 'boolean', default: false },
    env: { type: 'boolean', default: false },
  },
);

/** A single-quoted shell word: eval gives back exactly the value. */
const shellWord = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

await runCli(async ({ config, models }) => {
  if (!values.name) throw new Error('--name is required');
  if (!isPlanName(values.plan)) throw new Error(`--plan must be one of ${planNames.join(', ')}`);
  await warnOfAnotherCredentialsKey(models, config);
  const created = await createProject(models, { name: values.name, plan: values.plan }, config.credentialsKey);
  if (values.env) {
    const exports = { PROJECT_ID: created.projectId, API_KEY: created.apiKey, CLIENT_KEY: created.clientKey };
    for (const [name, value] of Object.entries(exports)) process.stdout.write(`export ${name}=${shellWord(value)}\n`);
    process.stderr.write(
      `Project ${created.projectId} (${created.plan}): its keys are set in this shell only; store them now.\n`,
    );
    return;
  }
  printResult({ ...created }, values.json);
  if (!values.json) process.stdout.write('The keys are shown once; store them now.\n');
});
