import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { JourneyBody, JourneyView } from '../../schemas/journey.ts';
import { toJourneyView } from '../../journeys/journey-store.ts';

export function registerCreateJourney(app: App, context: AppContext): void {
  app.post(
    '/journeys',
    {
      schema: {
        summary: 'Create a journey: a message sent to the subject of each matching event, after a delay',
        description: 'The message may read the triggering event as {{ entry_event.type }} and {{ entry_event.data.x }}.',
        tags: ['journeys'],
        params: ProjectParams,
        body: JourneyBody,
        response: { 200: dataResponse(JourneyView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({ data: toJourneyView(await context.journeys.create(request.params.projectId, request.body)) }),
  );
}
