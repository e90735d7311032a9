import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { AddEventTypeBody, EventTypeView } from '../../schemas/events.ts';
import { Type } from 'typebox';
import { invalidRequest } from '../../http/api-error.ts';
import { firstSessionEvent, isReservedEventType, sdkAutomaticEvents } from '../../events/automatic-events.ts';

const automaticEvents = new Set([firstSessionEvent, ...sdkAutomaticEvents]);

export function registerEventTypes(app: App, context: AppContext): void {
  app.get(
    '/event-types',
    {
      schema: {
        summary: "The project's event catalog (spec §6)",
        tags: ['events'],
        params: ProjectParams,
        response: { 200: dataResponse(Type.Array(EventTypeView)) },
      },
    },
    async (request) => ({ data: await context.eventTypes.list(request.params.projectId) }),
  );

  app.post(
    '/event-types',
    {
      schema: {
        summary: 'Add an event type to the catalog now, before any event of it arrives',
        tags: ['events'],
        params: ProjectParams,
        body: AddEventTypeBody,
        response: { 200: dataResponse(EventTypeView), 400: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { type } = request.body;
      if (isReservedEventType(type) && !automaticEvents.has(type)) {
        throw invalidRequest('Types starting with @ are reserved for automatic events.', [
          { path: '/type', message: `must be a custom type or one of ${[...automaticEvents].join(', ')}` },
        ]);
      }
      await context.eventTypes.add(projectId, [type], 'manual');
      return { data: (await context.eventTypes.find(projectId, type))! };
    },
  );
}
