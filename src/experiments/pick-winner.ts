import type { Deps } from '../deps.ts';
import { invalidRequest, notFound } from '../errors.ts';
import { decideExperiment } from './decide-experiment.ts';

/**
 * A marketer's pick (CONTRACTS §19): the variant must be one of the send's, and the experiment still testing; the
 * decision is then taken as an automatic one is, exactly once.
 */
export async function pickWinner(
  deps: Pick<Deps, 'models' | 'redis' | 'config' | 'queues'>,
  projectId: string,
  notificationId: string,
  variant: string,
): Promise<void> {
  const notification = await deps.models.Notification.findOne(
    { _id: notificationId, projectId },
    { variants: 1, experiment: 1 },
  ).lean();
  if (!notification) throw notFound(`No notification "${notificationId}" in this project.`);
  if (!notification.experiment || !notification.variants)
    throw invalidRequest('The notification has no experiment.', [{ path: '/variant', message: 'has no experiment' }]);
  if (!notification.variants.some((candidate) => candidate.name === variant))
    throw invalidRequest('No such variant.', [
      { path: '/variant', message: 'must be the name of one of the variants' },
    ]);
  if (!(await decideExperiment(deps, notificationId, variant)))
    throw invalidRequest('The experiment is no longer testing: its winner is decided.', [
      { path: '/variant', message: 'the experiment is no longer testing' },
    ]);
}
