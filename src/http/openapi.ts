import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '../schemas/common.ts';

const errorResponseRef = { $ref: '#/components/schemas/ErrorResponse' };

interface ResponseObject {
  description: string;
  content?: Record<string, { schema: object }>;
}
interface Parameter {
  required?: boolean;
  schema?: { default?: unknown };
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation | unknown>>;
  components?: { schemas?: Record<string, object> };
}

/** The validator fills in a parameter's default, so a client may leave out any parameter that has one. */
function markDefaultedParametersOptional(operation: Operation): void {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.schema?.default !== undefined) parameter.required = false;
  }
}

/**
 * Every operation needs an id: it names the typed client's call (clients/node). A route that declares none is named
 * by its method and path, `POST /v1/projects/{projectId}/device-imports` as postDeviceImports, until it declares one.
 */
function fallbackOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/v1\/(sdk\/)?projects\/\{projectId\}/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/**
 * Authentication, the plan rate limit, body parsing and the outage guard run before any route, so every operation can
 * answer any 4xx of CONTRACTS §1 and 503, always in the one error format. Declaring that once, as a shared schema,
 * lets clients and contract fuzzers check every error body, not only the statuses a route lists itself.
 */
function describeWireBehaviour<T extends OpenApiDocument>(document: T): T {
  const errorResponse = (description: string): ResponseObject => ({
    description,
    content: { 'application/json': { schema: errorResponseRef } },
  });
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const responses = (operation as Operation | null)?.responses;
      if (responses === undefined) continue;
      (operation as Operation).operationId ??= fallbackOperationId(method, path);
      markDefaultedParametersOptional(operation as Operation);
      responses['4XX'] ??= errorResponse('The request was refused; `error.code` says why (CONTRACTS §1).');
      responses['503'] ??= errorResponse('Redis or MongoDB cannot be reached; nothing was accepted.');
    }
  }
  const schemas = { ...document.components?.schemas, ErrorResponse: JSON.parse(JSON.stringify(ErrorResponse)) };
  return { ...document, components: { ...document.components, schemas } };
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Push messaging API',
        version: '1.0.0',
        description: 'See spec/push-messaging-api.md and CONTRACTS.md.',
      },
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ apiKey: [] }],
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? describeWireBehaviour(document.openapiObject as OpenApiDocument)
        : document.swaggerObject,
  });
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
