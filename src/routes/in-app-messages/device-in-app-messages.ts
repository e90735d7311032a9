import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { DeviceInAppMessage } from '../../schemas/in-app-message.ts';
import { deviceInAppMessages } from '../../in-app/device-in-app-messages.ts';

/** CONTRACTS §16: what the SDK of a site or app fetches to know which in-app messages it may show. */
export function registerDeviceInAppMessages(app: App, context: AppContext): void {
  app.get(
    '/devices/:deviceId/in-app-messages',
    {
      schema: {
        operationId: 'listDeviceInAppMessages',
        summary: 'The in-app messages this device may see now, rendered for it, highest priority first (CONTRACTS §16)',
        description:
          "Active, inside startAt/endAt, in the segment (evaluated for this device), allowed by the frequency given the device's own @iam_displayed events. Report @iam_displayed, @iam_clicked (data.buttonId) and @iam_closed with data.inAppMessageId through the events endpoint.",
        tags: ['in-app-messages'],
        params: ProjectDeviceParams,
        response: { 200: dataResponse(Type.Array(DeviceInAppMessage)), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: await deviceInAppMessages(
        context,
        (projectId, deviceId) => context.devices.find(projectId, deviceId),
        request.params.projectId,
        request.params.deviceId,
      ),
    }),
  );
}
