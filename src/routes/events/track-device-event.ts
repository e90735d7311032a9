import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, IdempotencyHeaders, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { ReportEventsResult, TrackDeviceEventBody } from '../../schemas/events.ts';
import { clickedEvent, sdkAutomaticEvents } from '../../schemas/automatic-events.ts';
import { recordClick } from '../../notifications/notification-clicks.ts';
import { enqueueEvents } from '../../queues/event-ingest.ts';
import { ingestJobIdFor } from '../../events/events-idempotency.ts';
import { inAppReported } from '../../webhooks/webhook-events.ts';
import { publishWebhookEvents } from '../../webhooks/publish-events.ts';
import { randomUUID } from 'node:crypto';

export function registerTrackDeviceEvent(app: App, context: AppContext): void {
  app.post(
    '/devices/:deviceId/events',
    {
      schema: {
        summary: 'trackEvent (SDK)',
        description: `The subject is the device. Of the automatic events, only ${[...sdkAutomaticEvents].join(', ')} may be sent. Idempotency-Key (the SDK sends one per call, its retries the same): a repeat within ten minutes stores and counts nothing again; the key with another body is a 422 idempotency_key_reused.`,
        tags: ['sdk'],
        params: ProjectDeviceParams,
        headers: IdempotencyHeaders,
        body: TrackDeviceEventBody,
        response: { 200: dataResponse(ReportEventsResult), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId, deviceId } = request.params;
      const { type, data = {} } = request.body;
      await context.devices.find(projectId, deviceId);
      if (type === clickedEvent && typeof data.notificationId === 'string')
        await recordClick(context, projectId, {
          notificationId: data.notificationId,
          deviceId,
          ...(typeof data.buttonId === 'string' && { buttonId: data.buttonId }),
        });
      const key = request.headers['idempotency-key'];
      const jobId = await ingestJobIdFor(context, projectId, deviceId, key, request.body);
      await enqueueEvents(context, projectId, [{ type, subjectType: 'device', subjectId: deviceId, data }], jobId);
      const { inAppMessageId, buttonId } = data;
      const reportKey = jobId ?? randomUUID();
      const inApp = inAppReported({ type, deviceId, inAppMessageId, buttonId, reportKey }, new Date());
      if (inApp) await publishWebhookEvents(context, projectId, [inApp]);
      return { data: { success: 1, error: [] } };
    },
  );
}
