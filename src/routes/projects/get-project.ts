import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ProjectView } from '../../schemas/project.ts';
import { findProjectView } from '../../projects/project-view.ts';

export function registerGetProject(app: App, context: AppContext): void {
  app.get(
    '',
    {
      schema: {
        operationId: 'getProject',
        summary: 'Read the project: id, name, plan, and its rate limit with the use of the last minute',
        tags: ['projects'],
        params: ProjectParams,
        response: { 200: dataResponse(ProjectView), 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await findProjectView(context, request.params.projectId) }),
  );
}
