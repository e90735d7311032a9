import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { JourneyIdParams } from '../../schemas/journey.ts';

export function registerDeleteJourney(app: App, context: AppContext): void {
  app.delete(
    '/journeys/:journeyId',
    {
      schema: {
        summary: 'Delete a journey and cancel its pending sends',
        tags: ['journeys'],
        params: JourneyIdParams,
        response: { 200: dataResponse(Type.Object({ id: Type.String(), deleted: Type.Boolean() })), 404: ErrorResponse },
      },
    },
    async (request) => {
      await context.journeys.delete(request.params.projectId, request.params.journeyId);
      return { data: { id: request.params.journeyId, deleted: true } };
    },
  );
}
