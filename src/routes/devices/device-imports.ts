import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ApiError } from '../../errors.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { DeviceImportParams, DeviceImportView, importMediaTypes, maxImportBytes } from '../../schemas/device-import.ts';
import { createImport, findImport, recentImports } from '../../device-files/device-imports.ts';
import { importTooLarge } from '../../device-files/store-upload.ts';
import { documentFiles } from '../../http/file-bodies.ts';

const unsupportedImport = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Send the devices as NDJSON (Content-Type: application/x-ndjson) or CSV (Content-Type: text/csv).',
  );

/**
 * The body as sent, or gunzipped (a OneSignal export arrives as .csv.gz); any other coding is refused. A plain body
 * whose declared length is past the limit is refused before a byte of it is read.
 */
function uploadedBytes(body: Readable, headers: { 'content-encoding'?: string; 'content-length'?: string }): Readable {
  const coding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') {
    if (Number(headers['content-length']) > maxImportBytes) throw importTooLarge('256 MiB');
    return body;
  }
  if (coding === 'gzip') return body.pipe(createGunzip());
  throw new ApiError(
    415,
    'unsupported_media_type',
    `Content-Encoding ${headers['content-encoding']} is not supported; send gzip or none.`,
  );
}

/**
 * POST /device-imports streams its body to storage as it arrives: the two import media types are handed over as the
 * request stream, in this plugin only, with no body limit of Fastify's (storeUpload keeps 256 MiB and 1,000,000
 * rows); every other type is refused with what to send instead.
 */
export async function registerDeviceImports(app: App, context: AppContext): Promise<void> {
  await app.register(async (imports: App) => {
    imports.addContentTypeParser(Object.keys(importMediaTypes), (_request, payload, done) => done(null, payload));
    imports.addContentTypeParser('*', (_request, _payload, done) => done(unsupportedImport(), undefined));
    imports.post(
      '/device-imports',
      {
        bodyLimit: maxImportBytes,
        config: { swaggerTransform: documentFiles({ upload: Object.keys(importMediaTypes) }) },
        schema: {
          operationId: 'createDeviceImport',
          summary: 'Import devices from NDJSON or CSV (this service’s columns, or a OneSignal subscriptions export)',
          description:
            'The body is streamed to storage (at most 256 MiB and 1,000,000 rows) and answered 202 once stored; a ' +
            'worker applies it. Read its progress and line errors with GET /device-imports/{importId}.',
          tags: ['devices'],
          params: ProjectParams,
          response: {
            202: dataResponse(Type.Object({ id: Type.String(), status: Type.Literal('queued') })),
            400: ErrorResponse,
            413: ErrorResponse,
            415: ErrorResponse,
          },
        },
      },
      async (request, reply) => {
        const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const format = importMediaTypes[mediaType];
        if (!format || !(request.body instanceof Readable)) throw unsupportedImport();
        const body = uploadedBytes(request.body, request.headers);
        const created = await createImport(context, request.params.projectId, format, body);
        return reply.code(202).send({ data: { id: created.id, status: 'queued' as const } });
      },
    );
  });
  app.get(
    '/device-imports',
    {
      schema: {
        operationId: 'listDeviceImports',
        summary: "The project's 20 latest device imports, newest first",
        tags: ['devices'],
        params: ProjectParams,
        response: { 200: dataResponse(Type.Array(DeviceImportView)) },
      },
    },
    async (request) => ({ data: await recentImports(context, request.params.projectId) }),
  );
  app.get(
    '/device-imports/:importId',
    {
      schema: {
        operationId: 'getDeviceImport',
        summary: "A device import's status, counts so far and first 100 line errors",
        tags: ['devices'],
        params: DeviceImportParams,
        response: { 200: dataResponse(DeviceImportView), 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await findImport(context, request.params.projectId, request.params.importId) }),
  );
}
