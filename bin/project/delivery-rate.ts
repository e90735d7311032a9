import { UnknownProjectError } from '../../src/projects/rotate-keys.ts';
import { printResult, runCli, readOptions } from './cli-context.ts';

const values = readOptions(
  'usage: npm run project:delivery-rate -- --project <id> --per-second <n|unlimited> [--json]',
  { project: { type: 'string' }, 'per-second': { type: 'string' }, json: { type: 'boolean', default: false } },
);

/**
 * One message every 1,000 seconds: below it the pacing's interval outgrows what Redis can count, and every batch would
 * fail.
 */
const slowestRate = 0.001;

function parseRate(text: string | undefined): number | null {
  if (text === 'unlimited') return null;
  const rate = Number(text);
  if (text === undefined || !Number.isFinite(rate) || rate < slowestRate)
    throw new Error(`--per-second must be a number of messages of at least ${slowestRate}, or "unlimited"`);
  return rate;
}

await runCli(async ({ models }) => {
  if (!values.project) throw new Error('--project is required');
  const deliveryRatePerSecond = parseRate(values['per-second']);
  const result = await models.Project.updateOne({ _id: values.project }, { $set: { deliveryRatePerSecond } });
  if (result.matchedCount === 0) throw new UnknownProjectError(values.project);
  printResult({ projectId: values.project, deliveryRatePerSecond: deliveryRatePerSecond ?? 'unlimited' }, values.json);
});
