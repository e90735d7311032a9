import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { HistoryEntry, HistoryQuery } from '../../schemas/history.ts';
import { deviceHistory } from '../../history/device-history.ts';
import { historyKey } from '../../models/history.ts';
import { pageBoundary } from '../../http/page-boundary.ts';

export function registerGetNotificationHistory(app: App, context: AppContext): void {
  app.get(
    '/devices/:deviceId/notification-history',
    {
      schema: {
        operationId: 'getNotificationHistory',
        summary: 'Notifications sent to a device in the last 30 days (spec §4.3)',
        description:
          'Newest first. Page with limit (default 100, at most 1000) and before: the notification id of the last entry seen, ' +
          'or its sentAt. A page holds its last millisecond whole, so it can exceed limit and the next one skips none.',
        tags: ['history'],
        params: ProjectDeviceParams,
        querystring: HistoryQuery,
        response: { 200: dataResponse(Type.Array(HistoryEntry)), 400: ErrorResponse, 404: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      const { projectId, deviceId } = request.params;
      // The query first: a bad one is a 400 whatever the device.
      const before = await pageBoundary(request, "a notification in this device's history", async (notificationId) => {
        const key = historyKey(notificationId, deviceId);
        const entry = await context.models.History.findOne({ _id: key, projectId }, { sentAt: 1 }).lean();
        return entry && { time: entry.sentAt, key };
      });
      await context.devices.find(projectId, deviceId);
      return { data: await deviceHistory(context.models, projectId, deviceId, { limit: request.query.limit, before }) };
    },
  );
}
