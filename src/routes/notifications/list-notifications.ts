import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ListNotificationsQuery, NotificationView } from '../../schemas/notification.ts';
import { listNotificationViews, notificationListing } from '../../notifications/list-notifications.ts';
import { pageBoundary } from '../../http/page-boundary.ts';

export function registerListNotifications(app: App, context: AppContext): void {
  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        summary: "The project's notifications with status and stats, newest first",
        description:
          'Page with limit (default 50, at most 500) and before: the id of the last notification seen, or its createdAt ' +
          '(an ISO 8601 time). A page holds its last millisecond whole, so it can exceed limit and the next one skips none.',
        tags: ['notifications'],
        params: ProjectParams,
        querystring: ListNotificationsQuery,
        response: { 200: dataResponse(Type.Array(NotificationView)), 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      const { projectId } = request.params;
      const before = await pageBoundary(request, 'a notification of this project', (id) =>
        notificationListing(context.models).boundary(projectId, id),
      );
      return { data: await listNotificationViews(context, projectId, { limit: request.query.limit, before }) };
    },
  );
}
