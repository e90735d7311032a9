import type { Deps } from '../deps.ts';
import type { SlidingWindowLimiter } from '../rate-limit/sliding-window.ts';
import type { ProjectView } from '../schemas/project.ts';
import { planLimits } from '../plans/plans.ts';
import { notFound } from '../errors.ts';
import { settingsOf, settingsFields, type StoredSettings } from './project-settings.ts';

type ProjectViewDeps = Pick<Deps, 'models'> & { limiter: SlidingWindowLimiter };

/** Keys, credentials and their hashes stay out of every view. */
const viewFields = { name: 1, plan: 1, createdAt: 1, ...settingsFields } as const;

type StoredProject = { _id: string; name: string; plan: ProjectView['plan']; createdAt: Date } & StoredSettings;

async function toProjectView(limiter: SlidingWindowLimiter, project: StoredProject): Promise<ProjectView> {
  const requestsPerMinute = planLimits[project.plan].requestsPerMinute;
  return {
    ...settingsOf(project),
    id: project._id,
    name: project.name,
    plan: project.plan,
    createdAt: project.createdAt.toISOString(),
    rateLimit: { requestsPerMinute, used: requestsPerMinute === null ? null : await limiter.used(project._id) },
  };
}

export async function findProjectView({ models, limiter }: ProjectViewDeps, projectId: string): Promise<ProjectView> {
  const project = await models.Project.findById(projectId, viewFields).lean<StoredProject>();
  if (!project) throw notFound(`No project "${projectId}".`);
  return toProjectView(limiter, project);
}

/** Every project in id order, for an operator; `after` is the last id of the previous page. */
export async function listProjectViews(
  { models, limiter }: ProjectViewDeps,
  page: { limit: number; after?: string },
): Promise<ProjectView[]> {
  const filter = page.after === undefined ? {} : { _id: { $gt: page.after } };
  const projects = await models.Project.find(filter, viewFields)
    .sort({ _id: 1 })
    .limit(page.limit)
    .lean<StoredProject[]>();
  return Promise.all(projects.map((project) => toProjectView(limiter, project)));
}
