import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams } from '../../schemas/common.ts';
import { DeviceExportQuery } from '../../schemas/device-import.ts';
import { deviceExport } from '../../device-files/device-export.ts';
import { documentFiles } from '../../http/file-bodies.ts';

export const exportMediaTypes = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;

export function registerExportDevices(app: App, context: AppContext): void {
  app.get(
    '/devices/export',
    {
      config: { swaggerTransform: documentFiles({ answer: Object.values(exportMediaTypes) }) },
      schema: {
        operationId: 'exportDevices',
        summary: "Export the project's devices (or a segment's) as NDJSON or CSV, in the columns an import takes",
        description:
          'Streamed in device id order; importing the file into another project gives the same devices. A CSV has ' +
          'a tag:<key> column for every tag key of the devices exported; a segment exports its subscribed devices.',
        tags: ['devices'],
        params: ProjectParams,
        querystring: DeviceExportQuery,
        response: { 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const stream = await deviceExport(context, request.params.projectId, request.query);
      return (
        reply
          .type(exportMediaTypes[format])
          .header('content-disposition', `attachment; filename="devices.${format}"`)
          // A stream is sent as it reads, past Fastify's response schema; documentFiles names its media type.
          .send(stream as never)
      );
    },
  );
}
