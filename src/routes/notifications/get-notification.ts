import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { NotificationIdParams, NotificationView } from '../../schemas/notification.ts';
import { findNotificationView } from '../../notifications/notification-view.ts';

export function registerGetNotification(app: App, context: AppContext): void {
  app.get(
    '/notifications/:notificationId',
    {
      schema: {
        summary: 'Read a notification with its status and delivery stats',
        tags: ['notifications'],
        params: NotificationIdParams,
        response: { 200: dataResponse(NotificationView), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: await findNotificationView(context, request.params.projectId, request.params.notificationId),
    }),
  );
}
