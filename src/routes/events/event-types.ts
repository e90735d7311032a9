import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { AddEventTypeBody, EventTypeView } from '../../schemas/events.ts';
import { Type } from 'typebox';
import type { ErrorDetail } from '../../errors.ts';
import { fieldsOf } from '../../schemas/validation.ts';
import { assertRequestPasses } from '../../http/invalid-request-details.ts';
import { eventTypeFigures, withFigures } from '../../events/event-type-counts.ts';
import { firstSessionEvent, isReservedEventType, sdkAutomaticEvents } from '../../schemas/automatic-events.ts';

const automaticEvents = new Set([firstSessionEvent, ...sdkAutomaticEvents]);

/** Only the automatic events may start with @; read on the fields it can, also beside a schema error. */
function reservedTypeErrors(body: unknown): ErrorDetail[] {
  const { type } = fieldsOf(body);
  return typeof type === 'string' && isReservedEventType(type) && !automaticEvents.has(type)
    ? [{ path: '/type', message: `must be a custom type or one of ${[...automaticEvents].join(', ')}` }]
    : [];
}

export function registerEventTypes(app: App, context: AppContext): void {
  app.get(
    '/event-types',
    {
      schema: {
        operationId: 'listEventTypes',
        summary: "The project's event catalog (spec §6), each type with its events over 30 days and the last day seen",
        tags: ['events'],
        params: ProjectParams,
        response: { 200: dataResponse(Type.Array(EventTypeView)) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const [entries, figures] = await Promise.all([
        context.eventTypes.list(projectId),
        eventTypeFigures(context, projectId),
      ]);
      return { data: entries.map((entry) => withFigures(entry, figures)) };
    },
  );

  app.post(
    '/event-types',
    {
      schema: {
        operationId: 'createEventType',
        summary: 'Add an event type to the catalog now, before any event of it arrives',
        tags: ['events'],
        params: ProjectParams,
        body: AddEventTypeBody,
        response: { 200: dataResponse(EventTypeView), 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      assertRequestPasses(
        request,
        reservedTypeErrors(request.body),
        'Types starting with @ are reserved for automatic events.',
      );
      const { projectId } = request.params;
      const { type } = request.body;
      await context.eventTypes.add(projectId, [type], 'manual');
      const [entry, figures] = await Promise.all([
        context.eventTypes.find(projectId, type),
        eventTypeFigures(context, projectId),
      ]);
      return { data: withFigures(entry!, figures) };
    },
  );
}
