import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import type { KeyCache, KeyOwner } from '../keys/key-cache.ts';
import { isAdminAuthorization } from '../admin/admin-auth.ts';
import { notFound } from '../errors.ts';
import { authenticate } from './authenticate.ts';

export interface ServerCaller {
  owner: KeyOwner;
  /** ADMIN_TOKEN was sent: the operator acts on any project, outside every plan's rate limit. */
  admin: boolean;
}

/** The project's server key, or ADMIN_TOKEN (when configured) for any project that exists. */
export async function authenticateServer(
  request: FastifyRequest,
  context: Pick<Deps, 'config' | 'models'> & { keyCache: KeyCache },
): Promise<ServerCaller> {
  const { adminToken } = context.config;
  if (adminToken !== undefined && isAdminAuthorization(request.headers.authorization, adminToken)) {
    const { projectId } = request.params as { projectId: string };
    const project = await context.models.Project.findById(projectId, { plan: 1 }).lean();
    if (!project) throw notFound(`No project "${projectId}".`);
    return { owner: { projectId, plan: project.plan, kind: 'server' }, admin: true };
  }
  return { owner: await authenticate(request, context.keyCache, 'server'), admin: false };
}
