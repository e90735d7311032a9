import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { registerRegisterDevice } from './devices/register-device.ts';
import { registerUpdateDevice } from './devices/update-device.ts';
import { registerTrackDeviceEvent } from './events/track-device-event.ts';

/** Routes under /v1/sdk/projects/{PROJECT_ID}: the public client key of the app or site. */
export function sdkApi(context: AppContext) {
  return async function sdkApiPlugin(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', async (request) => {
      await authenticate(request, context.keyCache, 'client');
    });
    registerRegisterDevice(app, context);
    registerUpdateDevice(app, context);
    registerTrackDeviceEvent(app, context);
  };
}
