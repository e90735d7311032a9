import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { enforcePlanRateLimit } from '../rate-limit/plan-rate-limit.ts';
import { registerGetDevice } from './devices/get-device.ts';
import { registerConsoleResources } from './console-resources.ts';
import { rememberOwner } from '../auth/request-owner.ts';
import { registerSendNotification } from './notifications/send-notification.ts';
import { registerGetNotification } from './notifications/get-notification.ts';
import { registerGetNotificationHistory } from './history/get-notification-history.ts';
import { registerUpdateUserTags } from './users/update-user-tags.ts';
import { registerReportEvents } from './events/report-events.ts';
import { registerEventTypes } from './events/event-types.ts';
import { registerRecentEvents } from './events/recent-events.ts';

/** Routes under /v1/projects/{PROJECT_ID}: server API key, plan rate limit. */
export function serverApi(context: AppContext) {
  return async function serverApiPlugin(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', async (request, reply) => {
      const owner = await authenticate(request, context.keyCache, 'server');
      await enforcePlanRateLimit(context.limiter, owner, reply);
      rememberOwner(request, owner);
    });
    registerGetDevice(app, context);
    registerConsoleResources(app, context);
    registerGetNotificationHistory(app, context);
    registerSendNotification(app, context);
    registerGetNotification(app, context);
    registerUpdateUserTags(app, context);
    registerReportEvents(app, context);
    registerRecentEvents(app, context);
    registerEventTypes(app, context);
  };
}
