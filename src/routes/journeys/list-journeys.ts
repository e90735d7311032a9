import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ListQuery, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { JourneyView } from '../../schemas/journey.ts';
import { toJourneyView } from '../../journeys/journey-store.ts';

export function registerListJourneys(app: App, context: AppContext): void {
  app.get(
    '/journeys',
    {
      schema: {
        summary: 'List journeys, newest first',
        tags: ['journeys'],
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: dataResponse(Type.Array(JourneyView)), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: (await context.journeys.list(request.params.projectId, request.query.limit)).map(toJourneyView) }),
  );
}
