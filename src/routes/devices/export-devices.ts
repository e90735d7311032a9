import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams } from '../../schemas/common.ts';
import { DeviceExportQuery } from '../../schemas/device-import.ts';
import { deviceExport } from '../../device-files/device-export.ts';

export const exportMediaTypes = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;

export function registerExportDevices(app: App, context: AppContext): void {
  app.get(
    '/devices/export',
    {
      schema: {
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
          // A stream is sent as it reads, past the response schema, which documents the JSON answers only.
          .send(stream as never)
      );
    },
  );
}
