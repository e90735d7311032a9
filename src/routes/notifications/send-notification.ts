import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { IdempotencyHeaders, SendNotificationBody } from '../../schemas/notification.ts';
import { requestOwner } from '../../auth/request-owner.ts';
import { createNotification } from '../../notifications/create-notification.ts';

export function registerSendNotification(app: App, context: AppContext): void {
  app.post(
    '/notifications',
    {
      schema: {
        summary: 'Send a message (spec §4.1)',
        description:
          'Queues the send and answers its id. With templateId the template content replaces title, body, url and imageUrl. ' +
          'Idempotency-Key: the same key within 24 hours answers the same id and sends nothing twice. sendAt schedules the send.',
        tags: ['notifications'],
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: SendNotificationBody,
        response: { 200: dataResponse(Type.Object({ id: Type.String() })), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: {
        id: await createNotification(context, requestOwner(request), request.body, request.headers['idempotency-key']),
      },
    }),
  );
}
