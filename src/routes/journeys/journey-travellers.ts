import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { TravellerParams, TravellerView } from '../../schemas/journey-traveller.ts';
import { Type } from 'typebox';
import { travellerVisits } from '../../journeys/journey-details.ts';

export function registerJourneyTravellers(app: App, context: AppContext): void {
  app.get(
    '/journeys/:id/travellers/:subjectType/:subjectId',
    {
      schema: {
        operationId: 'getJourneyTraveller',
        summary: "A device's or user's visits of the journey, newest first (the last 100)",
        description:
          'Each visit: when it entered and on which version, the steps it passed with their outcomes, where it waits and until when, and how it left.',
        tags: ['journeys'],
        params: TravellerParams,
        response: { 200: dataResponse(Type.Array(TravellerView)), 404: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId, id, subjectType, subjectId } = request.params;
      return { data: await travellerVisits(context, projectId, id, subjectType, subjectId) };
    },
  );
}
