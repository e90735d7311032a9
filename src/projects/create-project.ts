import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { PlanName } from '../plans/plans.ts';
import { generateKeyPair } from '../keys/api-keys.ts';
import { newVapidKeys } from '../webpush/vapid-keys.ts';
import { startDailyCounts } from '../overview/daily-counts.ts';

export interface CreatedProject {
  projectId: string;
  apiKey: string;
  clientKey: string;
  plan: PlanName;
}

/**
 * The plaintext keys exist only in the returned object: MongoDB holds their SHA-256 hashes. Given the credentials
 * key, the project's VAPID pair is made now; without it (benchmarks, fuzzing) on the first Web Push use. Its daily
 * counts start with it.
 */
export async function createProject(
  models: Models,
  input: { name: string; plan: PlanName },
  credentialsKey?: Buffer,
): Promise<CreatedProject> {
  const { apiKey, clientKey, serverKeyHash, clientKeyHash } = generateKeyPair();
  const projectId = randomUUID();
  const vapid = credentialsKey ? newVapidKeys(credentialsKey) : null;
  await models.Project.create({
    _id: projectId,
    name: input.name,
    plan: input.plan,
    serverKeyHash,
    clientKeyHash,
    vapid,
  });
  await startDailyCounts(models, projectId);
  return { projectId, apiKey, clientKey, plan: input.plan };
}
