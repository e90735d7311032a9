import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { JourneyBody, JourneyIdParams, JourneyView } from '../../schemas/journey.ts';
import { toJourneyView } from '../../journeys/journey-store.ts';

export function registerReplaceJourney(app: App, context: AppContext): void {
  app.put(
    '/journeys/:journeyId',
    {
      schema: {
        summary: 'Replace a journey; with "active": false its pending sends are canceled',
        tags: ['journeys'],
        params: JourneyIdParams,
        body: JourneyBody,
        response: { 200: dataResponse(JourneyView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toJourneyView(await context.journeys.replace(request.params.projectId, request.params.journeyId, request.body)),
    }),
  );
}
