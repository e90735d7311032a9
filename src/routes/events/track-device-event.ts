import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { ReportEventsResult, TrackDeviceEventBody } from '../../schemas/events.ts';
import { invalidRequest } from '../../http/api-error.ts';
import { eventDataProblem } from '../../events/event-data.ts';
import { clickedEvent, isReservedEventType, sdkAutomaticEvents } from '../../events/automatic-events.ts';
import { recordClick } from '../../notifications/notification-clicks.ts';
import { enqueueEvents } from '../../queues/event-ingest.ts';

export function registerTrackDeviceEvent(app: App, context: AppContext): void {
  app.post(
    '/devices/:deviceId/events',
    {
      schema: {
        summary: 'trackEvent (SDK)',
        description: `The subject is the device. Of the automatic events, only ${[...sdkAutomaticEvents].join(', ')} may be sent.`,
        tags: ['sdk'],
        params: ProjectDeviceParams,
        body: TrackDeviceEventBody,
        response: { 200: dataResponse(ReportEventsResult), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId, deviceId } = request.params;
      const { type, data = {} } = request.body;
      if (isReservedEventType(type) && !sdkAutomaticEvents.has(type)) {
        throw invalidRequest('This automatic event cannot be sent by an SDK.', [
          { path: '/type', message: `must be a custom type or one of ${[...sdkAutomaticEvents].join(', ')}` },
        ]);
      }
      const dataProblem = eventDataProblem(data);
      if (dataProblem) throw invalidRequest('The event data is not valid.', [{ path: '/data', message: dataProblem }]);
      await context.devices.find(projectId, deviceId);
      const fields = data as Record<string, unknown>;
      if (type === clickedEvent && typeof fields.notificationId === 'string')
        await recordClick(context.models, projectId, fields.notificationId, deviceId);
      await enqueueEvents(context, projectId, [{ type, subjectType: 'device', subjectId: deviceId, data: fields }]);
      return { data: { success: 1, error: [] } };
    },
  );
}
