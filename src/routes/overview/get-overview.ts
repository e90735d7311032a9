import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { OverviewQuery, OverviewView } from '../../schemas/overview.ts';
import { projectOverview } from '../../overview/project-overview.ts';

export function registerGetOverview(app: App, context: AppContext): void {
  app.get(
    '/overview',
    {
      schema: {
        operationId: 'getOverview',
        summary: 'The last days of the project: subscribed devices, pushes sent and clicked per UTC day',
        tags: ['projects'],
        params: ProjectParams,
        querystring: OverviewQuery,
        response: { 200: dataResponse(OverviewView), 400: ErrorResponse },
      },
    },
    async (request) => ({
      data: await projectOverview(context, request.params.projectId, request.query.days),
    }),
  );
}
