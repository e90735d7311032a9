import { isPlanName, planNames } from '../../src/plans/plans.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { printResult, runCli, readOptions, warnOfAnotherCredentialsKey } from './cli-context.ts';

const values = readOptions('usage: npm run project:create -- --name <name> [--plan starter|team|business] [--json]', {
  name: { type: 'string' },
  plan: { type: 'string', default: 'starter' },
  json: { type: 'boolean', default: false },
});

await runCli(async ({ config, models }) => {
  if (!values.name) throw new Error('--name is required');
  if (!isPlanName(values.plan)) throw new Error(`--plan must be one of ${planNames.join(', ')}`);
  await warnOfAnotherCredentialsKey(models, config);
  const created = await createProject(models, { name: values.name, plan: values.plan }, config.credentialsKey);
  printResult({ ...created }, values.json);
  if (!values.json) process.stdout.write('The keys are shown once; store them now.\n');
});
