import { parseArgs } from 'node:util';
import { UnknownProjectError } from '../../src/projects/rotate-keys.ts';
import { printResult, runCli } from './cli-context.ts';

const { values } = parseArgs({
  options: { project: { type: 'string' }, 'per-second': { type: 'string' }, json: { type: 'boolean', default: false } },
});

function parseRate(text: string | undefined): number | null {
  if (text === 'unlimited') return null;
  const rate = Number(text);
  if (text === undefined || !Number.isFinite(rate) || rate <= 0)
    throw new Error('--per-second must be a positive number of messages, or "unlimited"');
  return rate;
}

await runCli(async ({ models }) => {
  if (!values.project) throw new Error('--project is required');
  const deliveryRatePerSecond = parseRate(values['per-second']);
  const result = await models.Project.updateOne({ _id: values.project }, { $set: { deliveryRatePerSecond } });
  if (result.matchedCount === 0) throw new UnknownProjectError(values.project);
  printResult({ projectId: values.project, deliveryRatePerSecond: deliveryRatePerSecond ?? 'unlimited' }, values.json);
});
