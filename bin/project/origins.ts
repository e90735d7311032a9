import { UnknownProjectError } from '../../src/projects/rotate-keys.ts';
import { printResult, runCli, readOptions } from './cli-context.ts';

const values = readOptions(
  'usage: npm run project:origins -- --project <id> (--allow <origin,origin,...> | --any) [--json]',
  {
    project: { type: 'string' },
    allow: { type: 'string' },
    any: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
);

/** Browsers send the Origin header as scheme://host[:port], which is what is compared. */
function parseOrigins(list: string): string[] {
  return list.split(',').map((text) => {
    const trimmed = text.trim();
    if (!URL.canParse(trimmed) || new URL(trimmed).origin !== trimmed.replace(/\/$/, '')) {
      throw new Error(`--allow takes origins such as https://shop.example or http://localhost:8080, got "${trimmed}"`);
    }
    return new URL(trimmed).origin;
  });
}

await runCli(async ({ models }) => {
  if (!values.project) throw new Error('--project is required');
  if (values.any === (values.allow !== undefined)) throw new Error('give either --allow <origin,origin,...> or --any');
  const allowedOrigins = values.allow === undefined ? [] : parseOrigins(values.allow);
  const result = await models.Project.updateOne({ _id: values.project }, { $set: { allowedOrigins } });
  if (result.matchedCount === 0) throw new UnknownProjectError(values.project);
  printResult(
    { projectId: values.project, allowedOrigins: allowedOrigins.length === 0 ? 'any' : allowedOrigins.join(',') },
    values.json,
  );
});
