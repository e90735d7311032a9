import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import type { KeyOwner } from '../../keys/key-cache.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { ListProjectsQuery, ProjectView } from '../../schemas/project.ts';
import { isAdminAuthorization } from '../../admin/admin-auth.ts';
import { authenticateKey } from '../../auth/authenticate.ts';
import { enforcePlanRateLimit } from '../../rate-limit/plan-rate-limit.ts';
import { findProjectView, listProjectViews } from '../../projects/project-view.ts';

/** The key's project, or 'all' for ADMIN_TOKEN; resolved before validation, like every server API route. */
const callers = new WeakMap<FastifyRequest, KeyOwner | 'all'>();

/**
 * GET /v1/projects: every project for ADMIN_TOKEN; for a server key, the one project it belongs to, which is how a
 * caller holding only a key (the console's sign-in) learns its project id.
 */
export function projectsApi(context: AppContext) {
  return async function projectsApiPlugin(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', async (request, reply) => {
      const { adminToken } = context.config;
      if (adminToken !== undefined && isAdminAuthorization(request.headers.authorization, adminToken)) {
        callers.set(request, 'all');
        return;
      }
      const owner = await authenticateKey(request, context.keyCache, 'server');
      await enforcePlanRateLimit(context.limiter, owner, reply);
      callers.set(request, owner);
    });
    app.get(
      '',
      {
        schema: {
          operationId: 'listProjects',
          summary: "List the projects the key may use: every project with ADMIN_TOKEN, else the key's own",
          description: 'In id order; page with limit and after, the id of the last project seen.',
          tags: ['projects'],
          querystring: ListProjectsQuery,
          response: { 200: dataResponse(Type.Array(ProjectView)), 400: ErrorResponse },
        },
      },
      async (request) => {
        const caller = callers.get(request)!;
        if (caller === 'all') return { data: await listProjectViews(context, request.query) };
        const { after } = request.query;
        return {
          data:
            after !== undefined && after >= caller.projectId ? [] : [await findProjectView(context, caller.projectId)],
        };
      },
    );
  };
}
