import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { NotificationIdParams, NotificationView } from '../../schemas/notification.ts';
import { cancelNotification } from '../../notifications/cancel-notification.ts';

export function registerCancelNotification(app: App, context: AppContext): void {
  app.post(
    '/notifications/:notificationId/cancel',
    {
      schema: {
        operationId: 'cancelNotification',
        summary: 'Cancel a scheduled send, one still waiting in the queue, or the waiting pushes of one sending',
        description:
          'A queued notification becomes canceled and nothing of it is sent; canceling it again answers the same. ' +
          'A sending one is canceled too: its pushes still waiting (local time, quiet hours, throttle) are not sent. ' +
          'A completed or failed notification cannot be canceled: 400.',
        tags: ['notifications'],
        params: NotificationIdParams,
        response: { 200: dataResponse(NotificationView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: await cancelNotification(context, request.params.projectId, request.params.notificationId),
    }),
  );
}
