import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { registerRegisterDevice } from './devices/register-device.ts';
import { registerUpdateDevice } from './devices/update-device.ts';
import { registerTrackDeviceEvent } from './events/track-device-event.ts';
import { registerGetClientConfig } from './config/get-client-config.ts';
import { registerDeviceInAppMessages } from './in-app-messages/device-in-app-messages.ts';
import { sdkCorsOptions } from '../cors/sdk-cors.ts';
import { requireProjectInPath } from '../http/error-handler.ts';

/** Routes under /v1/sdk/projects/{PROJECT_ID}: the public client key of the app or site. */
export function sdkApi(context: AppContext) {
  return async function sdkApiPlugin(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    // Before authentication: a preflight carries no Authorization header and is answered by the CORS hook itself.
    await app.register(cors, { delegator: sdkCorsOptions(context.models) });
    // The hook only runs for a matched route, and the plugin's own OPTIONS '*' lands on the prefix's last parameter
    // (/v1/sdk/projects/:projectId*), which matches no route below it: this one does, and the hook answers it.
    app.options('/*', { schema: { hide: true } }, async (_request, reply) => reply.callNotFound());
    app.addHook('onRequest', requireProjectInPath);
    app.addHook('onRequest', async (request) => {
      await authenticate(request, context.keyCache, 'client');
    });
    registerRegisterDevice(app, context);
    registerUpdateDevice(app, context);
    registerTrackDeviceEvent(app, context);
    registerGetClientConfig(app, context);
    registerDeviceInAppMessages(app, context);
  };
}
