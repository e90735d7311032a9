import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { notFound } from '../../errors.ts';
import { projectVapidKeys } from '../../webpush/vapid-keys.ts';

export const ClientConfig = Type.Object({
  vapidPublicKey: Type.String({
    description: 'The applicationServerKey for PushManager.subscribe (RFC 8292), URL-safe base64',
  }),
});

export function registerGetClientConfig(app: App, context: AppContext): void {
  app.get(
    '/config',
    {
      schema: {
        operationId: 'getClientConfig',
        summary: 'What a browser needs to subscribe to Web Push (SDK)',
        tags: ['sdk'],
        params: ProjectParams,
        response: { 200: dataResponse(ClientConfig), 404: ErrorResponse },
      },
    },
    async (request) => {
      const vapid = await projectVapidKeys(context.models, context.config.credentialsKey, request.params.projectId);
      if (!vapid) throw notFound('No such project.');
      return { data: { vapidPublicKey: vapid.publicKey } };
    },
  );
}
