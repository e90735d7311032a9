import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { enforcePlanRateLimit } from '../rate-limit/plan-rate-limit.ts';
import { registerGetDevice } from './devices/get-device.ts';
import { rememberOwner } from '../auth/request-owner.ts';
import { registerSendNotification } from './notifications/send-notification.ts';
import { registerGetNotification } from './notifications/get-notification.ts';
import { registerGetNotificationHistory } from './history/get-notification-history.ts';
import { registerCreateTemplate } from './templates/create-template.ts';
import { registerListTemplates } from './templates/list-templates.ts';
import { registerGetTemplate } from './templates/get-template.ts';
import { registerReplaceTemplate } from './templates/replace-template.ts';
import { registerDeleteTemplate } from './templates/delete-template.ts';
import { registerUpdateUserTags } from './users/update-user-tags.ts';
import { registerReportEvents } from './events/report-events.ts';
import { registerEventTypes } from './events/event-types.ts';
import { registerRecentEvents } from './events/recent-events.ts';
import { registerCreateSegment } from './segments/create-segment.ts';
import { registerListSegments } from './segments/list-segments.ts';
import { registerGetSegment } from './segments/get-segment.ts';
import { registerReplaceSegment } from './segments/replace-segment.ts';
import { registerDeleteSegment } from './segments/delete-segment.ts';
import { registerPreviewSegment } from './segments/preview-segment.ts';
import { registerCreateJourney } from './journeys/create-journey.ts';
import { registerListJourneys } from './journeys/list-journeys.ts';
import { registerGetJourney } from './journeys/get-journey.ts';
import { registerReplaceJourney } from './journeys/replace-journey.ts';
import { registerDeleteJourney } from './journeys/delete-journey.ts';

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
    registerGetNotificationHistory(app, context);
    registerSendNotification(app, context);
    registerGetNotification(app, context);
    registerCreateTemplate(app, context);
    registerListTemplates(app, context);
    registerGetTemplate(app, context);
    registerReplaceTemplate(app, context);
    registerDeleteTemplate(app, context);
    registerUpdateUserTags(app, context);
    registerReportEvents(app, context);
    registerRecentEvents(app, context);
    registerEventTypes(app, context);
    registerCreateSegment(app, context);
    registerListSegments(app, context);
    registerGetSegment(app, context);
    registerReplaceSegment(app, context);
    registerDeleteSegment(app, context);
    registerPreviewSegment(app, context);
    registerCreateJourney(app, context);
    registerListJourneys(app, context);
    registerGetJourney(app, context);
    registerReplaceJourney(app, context);
    registerDeleteJourney(app, context);
  };
}
