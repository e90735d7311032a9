import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { ServerDeviceView } from '../../schemas/device.ts';
import { toServerDeviceView } from '../../devices/device-view.ts';

export function registerGetDevice(app: App, context: AppContext): void {
  app.get(
    '/devices/:deviceId',
    {
      schema: {
        operationId: 'getDevice',
        summary: 'Read a device (spec §2.2)',
        description:
          'The four fields of the spec, and the language and time zone the SDK set (CONTRACTS §3), when set.',
        tags: ['devices'],
        params: ProjectDeviceParams,
        response: { 200: dataResponse(ServerDeviceView), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toServerDeviceView(await context.devices.find(request.params.projectId, request.params.deviceId)),
    }),
  );
}
