import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { PreviewNotificationBody, RenderedContent } from '../../schemas/notification.ts';
import { previewContent } from '../../notifications/preview-content.ts';

export function registerPreviewNotification(app: App, context: AppContext): void {
  app.post(
    '/notifications/preview',
    {
      schema: {
        operationId: 'previewNotification',
        summary: 'Render a message for one device without sending it',
        description:
          'Takes the content fields of a send (templateId or inline title, body, url, imageUrl, and data) and a deviceId; ' +
          'answers the title, body, url and imageUrl that device would receive. Liquid syntax errors are a 400 naming each field.',
        tags: ['notifications'],
        params: ProjectParams,
        body: PreviewNotificationBody,
        response: { 200: dataResponse(RenderedContent), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await previewContent(context, request.params.projectId, request.body) }),
  );
}
