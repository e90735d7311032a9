import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { DeviceView, UpdateDeviceBody } from '../../schemas/device.ts';
import { toDeviceView } from '../../devices/device-view.ts';

export function registerUpdateDevice(app: App, context: AppContext): void {
  app.patch(
    '/devices/:deviceId',
    {
      schema: {
        operationId: 'updateDevice',
        summary: 'setUserId and setTags (SDK)',
        tags: ['sdk'],
        params: ProjectDeviceParams,
        body: UpdateDeviceBody,
        response: { 200: dataResponse(DeviceView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toDeviceView(await context.devices.update(request.params.projectId, request.params.deviceId, request.body)),
    }),
  );
}
