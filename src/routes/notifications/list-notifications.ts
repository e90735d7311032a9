import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ListNotificationsQuery, NotificationView } from '../../schemas/notification.ts';
import { listNotificationViews } from '../../notifications/list-notifications.ts';

export function registerListNotifications(app: App, context: AppContext): void {
  app.get(
    '/notifications',
    {
      schema: {
        summary: "The project's notifications with status and stats, newest first",
        description:
          'Page with limit (default 50, at most 500) and before, the createdAt of the last notification seen.',
        tags: ['notifications'],
        params: ProjectParams,
        querystring: ListNotificationsQuery,
        response: { 200: dataResponse(Type.Array(NotificationView)), 400: ErrorResponse },
      },
    },
    async (request) => {
      const { limit, before } = request.query;
      return {
        data: await listNotificationViews(context.models, request.params.projectId, {
          limit,
          before: before === undefined ? undefined : new Date(before),
        }),
      };
    },
  );
}
