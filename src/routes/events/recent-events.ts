import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { EventView, RecentEventsQuery } from '../../schemas/events.ts';
import { recentEvents } from '../../events/recent-events.ts';

export function registerRecentEvents(app: App, context: AppContext): void {
  app.get(
    '/events',
    {
      schema: {
        summary: 'Recent events, newest first (spec §6)',
        description: 'deviceId matches the events that count for the device: its own and those of its user.',
        tags: ['events'],
        params: ProjectParams,
        querystring: RecentEventsQuery,
        response: { 200: dataResponse(Type.Array(EventView)), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: await recentEvents(context.models, request.params.projectId, request.query) }),
  );
}
