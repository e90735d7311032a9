import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { EventView, RecentEventsQuery } from '../../schemas/events.ts';
import { eventBoundary, recentEvents } from '../../events/recent-events.ts';
import { pageBoundary } from '../../http/page-boundary.ts';

export function registerRecentEvents(app: App, context: AppContext): void {
  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'Recent events, newest first (spec §6)',
        description:
          'deviceId matches the events that count for the device: its own and those of its user. Page with before: ' +
          'the id of the last event seen (the events of one request share their receivedAt, so a time would not say ' +
          'where a page ended).',
        tags: ['events'],
        params: ProjectParams,
        querystring: RecentEventsQuery,
        response: { 200: dataResponse(Type.Array(EventView)), 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      const { projectId } = request.params;
      const before = await pageBoundary(
        request,
        'an event of this project',
        (id) => eventBoundary(context.models, projectId, id),
        false,
      );
      return { data: await recentEvents(context.models, projectId, request.query, before) };
    },
  );
}
