import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, dataResponse } from '../../schemas/common.ts';
import { eraseDevice } from '../../devices/erase-device.ts';

export function registerEraseDevice(app: App, context: AppContext): void {
  app.delete(
    '/devices/:deviceId',
    {
      schema: {
        operationId: 'eraseDevice',
        summary: 'Erase a device and what is stored about it',
        description:
          'Deletes the device, its notification history and the clicks it reported, and the events it reported with ' +
          'their daily counts (a data-protection erasure). Notifications keep their sent, failed and unsubscribed ' +
          "counts; its user's events stay. Registering the same device id again makes a new device.",
        tags: ['devices'],
        params: ProjectDeviceParams,
        response: {
          200: dataResponse(Type.Object({ id: Type.String(), deleted: Type.Boolean() })),
          404: ErrorResponse,
        },
      },
    },
    async (request) => {
      await eraseDevice(context, request.params.projectId, request.params.deviceId);
      return { data: { id: request.params.deviceId, deleted: true } };
    },
  );
}
