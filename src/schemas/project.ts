import { Type, type Static } from 'typebox';
import { planNames } from '../plans/plans.ts';
import { ProjectParams, PageLimit } from './common.ts';
import { ProjectSettings } from './project-settings.ts';

export const maxProjectsPerPage = 1000;

export const ProjectView = Type.Object({
  ...ProjectSettings.properties,
  id: Type.String(),
  name: Type.String(),
  plan: Type.Enum(planNames),
  createdAt: Type.String({ format: 'date-time' }),
  rateLimit: Type.Object({
    /** null: the plan is unlimited. */
    requestsPerMinute: Type.Union([Type.Integer(), Type.Null()]),
    /** Server API requests counted in the last minute; null where the plan is unlimited, so nothing is counted. */
    used: Type.Union([Type.Integer(), Type.Null()]),
  }),
});
export type ProjectView = Static<typeof ProjectView>;

export const ListProjectsQuery = Type.Object(
  {
    limit: PageLimit(maxProjectsPerPage, 100),
    after: Type.Optional(ProjectParams.properties.projectId),
  },
  { additionalProperties: false },
);
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;

/** Shown once: only their hashes are stored (CONTRACTS §2). */
export const RotatedKeys = Type.Object({
  projectId: Type.String(),
  apiKey: Type.String(),
  clientKey: Type.String(),
  plan: Type.Enum(planNames),
});
export type RotatedKeys = Static<typeof RotatedKeys>;
