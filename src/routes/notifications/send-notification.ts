import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, IdempotencyHeaders, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { SendNotificationBody } from '../../schemas/notification.ts';
import { requestOwner } from '../../auth/request-owner.ts';
import { createNotification, sendRequestErrors } from '../../notifications/create-notification.ts';
import { assertRequestValid } from '../../http/invalid-request-details.ts';

export function registerSendNotification(app: App, context: AppContext): void {
  app.post(
    '/notifications',
    {
      schema: {
        operationId: 'sendNotification',
        summary: 'Send a message (spec §4.1)',
        description:
          'Queues the send and answers its id. With templateId the template content replaces title, body, url and imageUrl. ' +
          'Idempotency-Key: the same key within 24 hours answers the same id and sends nothing twice; with another body it is a 422. sendAt schedules the send.',
        tags: ['notifications'],
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: SendNotificationBody,
        response: {
          200: dataResponse(Type.Object({ id: Type.String() })),
          400: ErrorResponse,
          404: ErrorResponse,
          422: ErrorResponse,
        },
      },
      attachValidation: true,
    },
    async (request) => {
      const owner = requestOwner(request);
      assertRequestValid(request, () => sendRequestErrors(owner.plan, request.body, Date.now()));
      return {
        data: { id: await createNotification(context, owner, request.body, request.headers['idempotency-key']) },
      };
    },
  );
}
