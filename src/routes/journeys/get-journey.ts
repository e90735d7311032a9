import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { JourneyIdParams, JourneyView } from '../../schemas/journey.ts';
import { toJourneyView } from '../../journeys/journey-store.ts';

export function registerGetJourney(app: App, context: AppContext): void {
  app.get(
    '/journeys/:journeyId',
    {
      schema: { summary: 'Read a journey', tags: ['journeys'], params: JourneyIdParams, response: { 200: dataResponse(JourneyView), 404: ErrorResponse } },
    },
    async (request) => ({ data: toJourneyView(await context.journeys.find(request.params.projectId, request.params.journeyId)) }),
  );
}
