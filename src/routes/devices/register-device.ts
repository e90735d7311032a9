import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { DeviceView, RegisterDeviceBody } from '../../schemas/device.ts';
import { toDeviceView } from '../../devices/device-view.ts';

export function registerRegisterDevice(app: App, context: AppContext): void {
  app.put(
    '/devices/:deviceId',
    {
      schema: {
        operationId: 'registerDevice',
        summary: 'Register or update a device (SDK)',
        description:
          'Tags are merged into the existing ones; a null value deletes a tag. Creating a device records @first_session.',
        tags: ['sdk'],
        params: ProjectDeviceParams,
        body: RegisterDeviceBody,
        response: { 200: dataResponse(DeviceView), 400: ErrorResponse },
      },
    },
    async (request) => ({
      data: toDeviceView(
        await context.devices.register(request.params.projectId, request.params.deviceId, request.body),
      ),
    }),
  );
}
