import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, IdempotencyHeaders, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { ReportEventsResult, TrackDeviceEventBody } from '../../schemas/events.ts';
import type { ErrorDetail } from '../../http/api-error.ts';
import { escapePointer } from '../../http/validation.ts';
import { assertRequestPasses, fieldsOf } from '../../http/invalid-request-details.ts';
import { eventDataProblems } from '../../events/event-data.ts';
import { clickedEvent, isReservedEventType, sdkAutomaticEvents } from '../../events/automatic-events.ts';
import { recordClick } from '../../notifications/notification-clicks.ts';
import { enqueueEvents } from '../../queues/event-ingest.ts';
import { ingestJobIdFor } from '../../events/events-idempotency.ts';

/** What the schema cannot say, read on the fields it can: only some automatic events may come from an SDK; data's values. */
function trackedEventErrors(body: unknown): ErrorDetail[] {
  const { type, data = {} } = fieldsOf(body);
  const details: ErrorDetail[] = [];
  if (typeof type === 'string' && isReservedEventType(type) && !sdkAutomaticEvents.has(type))
    details.push({ path: '/type', message: `must be a custom type or one of ${[...sdkAutomaticEvents].join(', ')}` });
  for (const problem of eventDataProblems(data))
    details.push({
      path: problem.key === undefined ? '/data' : `/data/${escapePointer(problem.key)}`,
      message: problem.message,
    });
  return details;
}

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
      attachValidation: true,
    },
    async (request) => {
      assertRequestPasses(
        request,
        trackedEventErrors(request.body),
        'The event is not valid; see details for each field.',
      );
      const { projectId, deviceId } = request.params;
      const { type, data = {} } = request.body;
      await context.devices.find(projectId, deviceId);
      const fields = data as Record<string, unknown>;
      if (type === clickedEvent && typeof fields.notificationId === 'string')
        await recordClick(context.models, projectId, fields.notificationId, deviceId);
      const key = request.headers['idempotency-key'];
      const jobId = await ingestJobIdFor(context, projectId, deviceId, key, request.body);
      await enqueueEvents(
        context,
        projectId,
        [{ type, subjectType: 'device', subjectId: deviceId, data: fields }],
        jobId,
      );
      return { data: { success: 1, error: [] } };
    },
  );
}
