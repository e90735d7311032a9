import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { NotificationIdParams, NotificationView } from '../../schemas/notification.ts';
import { PickWinnerBody } from '../../schemas/experiment.ts';
import { pickWinner } from '../../experiments/pick-winner.ts';
import { findNotificationView } from '../../notifications/notification-view.ts';

export function registerPickWinner(app: App, context: AppContext): void {
  app.post(
    '/notifications/:notificationId/winner',
    {
      schema: {
        operationId: 'pickExperimentWinner',
        summary: "Pick an experiment's winner while it is testing",
        description:
          'The named variant wins (decidedBy manual) and goes to the devices that waited, with the send’s options ' +
          'and timing. A variant the send does not have, a send without an experiment, or an experiment already ' +
          'decided: 400.',
        tags: ['notifications'],
        params: NotificationIdParams,
        body: PickWinnerBody,
        response: { 200: dataResponse(NotificationView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId, notificationId } = request.params;
      await pickWinner(context, projectId, notificationId, request.body.variant);
      return { data: await findNotificationView(context, projectId, notificationId) };
    },
  );
}
