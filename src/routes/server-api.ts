import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { authenticateServer } from '../auth/authenticate-server.ts';
import { enforcePlanRateLimit } from '../rate-limit/plan-rate-limit.ts';
import { requireProjectInPath } from '../http/error-handler.ts';
import { registerGetDevice } from './devices/get-device.ts';
import { registerEraseDevice } from './devices/erase-device.ts';
import { registerConsoleResources } from './console-resources.ts';
import { rememberOwner } from '../auth/request-owner.ts';
import { registerSendNotification } from './notifications/send-notification.ts';
import { registerGetNotification } from './notifications/get-notification.ts';
import { registerCancelNotification } from './notifications/cancel-notification.ts';
import { registerPickWinner } from './notifications/pick-winner.ts';
import { registerGetNotificationHistory } from './history/get-notification-history.ts';
import { registerUpdateUserTags } from './users/update-user-tags.ts';
import { registerReportEvents } from './events/report-events.ts';
import { registerEventTypes } from './events/event-types.ts';
import { registerRecentEvents } from './events/recent-events.ts';
import { registerGetProject } from './projects/get-project.ts';
import { registerRotateProjectKeys } from './projects/rotate-project-keys.ts';
import { registerUpdateProjectSettings } from './projects/update-project-settings.ts';
import { registerListNotifications } from './notifications/list-notifications.ts';
import { registerPreviewNotification } from './notifications/preview-notification.ts';
import { registerListDevices } from './devices/list-devices.ts';
import { registerWebhookRoutes } from './webhooks/webhook-routes.ts';
import { registerListDeliveries } from './notifications/list-deliveries.ts';
import { registerGetOverview } from './overview/get-overview.ts';
import { registerInAppMessages } from './in-app-messages/in-app-message-resource.ts';
import { registerDeviceImports } from './devices/device-imports.ts';
import { registerExportDevices } from './devices/export-devices.ts';

/** Routes under /v1/projects/{PROJECT_ID}: server API key (or ADMIN_TOKEN), plan rate limit. */
export function serverApi(context: AppContext) {
  return async function serverApiPlugin(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireProjectInPath);
    app.addHook('onRequest', async (request, reply) => {
      const { owner, admin } = await authenticateServer(request, context);
      if (!admin) await enforcePlanRateLimit(context.limiter, owner, reply);
      rememberOwner(request, owner);
    });
    registerGetDevice(app, context);
    registerEraseDevice(app, context);
    registerConsoleResources(app, context);
    registerGetNotificationHistory(app, context);
    registerSendNotification(app, context);
    registerGetNotification(app, context);
    registerCancelNotification(app, context);
    registerPickWinner(app, context);
    registerUpdateUserTags(app, context);
    registerReportEvents(app, context);
    registerRecentEvents(app, context);
    registerEventTypes(app, context);
    registerGetProject(app, context);
    registerRotateProjectKeys(app, context);
    registerUpdateProjectSettings(app, context);
    registerListNotifications(app, context);
    registerPreviewNotification(app, context);
    registerListDevices(app, context);
    registerWebhookRoutes(app, context);
    registerListDeliveries(app, context);
    registerGetOverview(app, context);
    registerInAppMessages(app, context);
    await registerDeviceImports(app, context);
    registerExportDevices(app, context);
  };
}
