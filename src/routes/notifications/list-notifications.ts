import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ListNotificationsQuery, NotificationView } from '../../schemas/notification.ts';
import { listNotificationViews } from '../../notifications/list-notifications.ts';
import { isRequestTime } from '../../schemas/request-formats.ts';
import { invalidFields } from '../../http/api-error.ts';
import type { Models } from '../../models/index.ts';

export function registerListNotifications(app: App, context: AppContext): void {
  app.get(
    '/notifications',
    {
      schema: {
        summary: "The project's notifications with status and stats, newest first",
        description:
          'Page with limit (default 50, at most 500) and before: the id of the last notification seen, or its createdAt ' +
          '(an ISO 8601 time), which skips notifications created in the same millisecond.',
        tags: ['notifications'],
        params: ProjectParams,
        querystring: ListNotificationsQuery,
        response: { 200: dataResponse(Type.Array(NotificationView)), 400: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { limit, before } = request.query;
      return {
        data: await listNotificationViews(context.models, projectId, {
          limit,
          before: before === undefined ? undefined : await pageBoundary(context.models, projectId, before),
        }),
      };
    },
  );
}

/** A `before` that is a time stands for itself; any other is the id of a notification of the project. */
async function pageBoundary(
  models: Models,
  projectId: string,
  before: string,
): Promise<{ createdAt: Date; id?: string }> {
  if (isRequestTime(before)) return { createdAt: new Date(before) };
  const notification = await models.Notification.findOne({ _id: before, projectId }, { createdAt: 1 }).lean();
  if (!notification)
    throw invalidFields([
      {
        path: '/query/before',
        message:
          'must be the id of a notification of this project or an ISO 8601 time with a time zone, in the years 0001 to 9999',
      },
    ]);
  return { createdAt: notification.createdAt, id: notification._id };
}
