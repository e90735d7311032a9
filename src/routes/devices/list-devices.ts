import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectDeviceParams, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { DeviceListItem, DeviceSubscription, ListDevicesQuery } from '../../schemas/device-list.ts';
import { listDevices, toDeviceSubscription } from '../../devices/list-devices.ts';
import { newestDevicesListing } from '../../devices/newest-devices.ts';
import { pageBoundary } from '../../http/page-boundary.ts';

export function registerListDevices(app: App, context: AppContext): void {
  app.get(
    '/devices',
    {
      schema: {
        operationId: 'listDevices',
        summary: "List the project's devices, by userId and/or tag, or newest first by platform and subscription",
        description:
          'In device id order; page with limit (default 50, at most 500) and after, the id of the last device seen. ' +
          'tag alone lists the devices that have the tag; with value, those whose tag equals it (as text or as a number). ' +
          'order=newest lists them newest first, filtered by platform and subscribed, paged with before (a device id).',
        tags: ['devices'],
        params: ProjectParams,
        querystring: ListDevicesQuery,
        response: { 200: dataResponse(Type.Array(DeviceListItem)), 400: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const before = await pageBoundary(
        request,
        'a device of this project',
        (id) => newestDevicesListing(context.models, request.query).boundary(projectId, id),
        false,
      );
      return { data: await listDevices(context.models, projectId, request.query, before) };
    },
  );

  app.get(
    '/devices/:deviceId/subscription',
    {
      schema: {
        operationId: 'getDeviceSubscription',
        summary: 'Whether the device is subscribed, and when and why a gateway unsubscribed it',
        tags: ['devices'],
        params: ProjectDeviceParams,
        response: { 200: dataResponse(DeviceSubscription), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toDeviceSubscription(await context.devices.find(request.params.projectId, request.params.deviceId)),
    }),
  );
}
