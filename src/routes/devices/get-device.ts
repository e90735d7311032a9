import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { DeviceView } from '../../schemas/device.ts';
import { toDeviceView } from '../../devices/device-view.ts';

export function registerGetDevice(app: App, context: AppContext): void {
  app.get(
    '/devices/:deviceId',
    {
      schema: {
        summary: 'Read a device (spec §2.2)',
        tags: ['devices'],
        params: ProjectDeviceParams,
        response: { 200: dataResponse(DeviceView), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toDeviceView(await context.devices.find(request.params.projectId, request.params.deviceId)),
    }),
  );
}
