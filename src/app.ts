import { installDraining } from './http/draining.ts';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './app-context.ts';
import type { App } from './http/app-types.ts';
import {
  answerClientError,
  answerFrameworkError,
  installErrorHandling,
  maxPathParamLength,
} from './http/error-handler.ts';
import { validatorCompiler } from './http/validation.ts';
import { reusedSerializers } from './http/response-serializers.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { installNoSniff } from './http/no-sniff.ts';
import { registerOpenApi, registerOpenApiRoute } from './http/openapi.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { serverApi } from './routes/server-api.ts';
import { sdkApi } from './routes/sdk-api.ts';
import { projectsApi } from './routes/projects/list-projects.ts';
import { registerConsole } from './console/serve-console.ts';
import { registerWebSdk } from './web-sdk/serve-sdk.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { createIngressMetrics } from './metrics/ingress-metrics.ts';

import { requestFormats } from './schemas/request-formats.ts';

export const bodyLimitBytes = 1024 * 1024;

export async function buildApp(context: AppContext, log: Logger): Promise<App> {
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    // One log line per request costs more than the request itself at thousands per second; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: bodyLimitBytes,
    // A request arriving while the ingress drains is answered 503 in the error format (installDraining).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // Device ids may be 128 characters; the router's default cap is 100.
    routerOptions: { maxParamLength: maxPathParamLength },
    frameworkErrors: answerFrameworkError,
    // Response schemas reuse request ones, whose formats the serializer's own Ajv must know to pick a union branch.
    serializerOpts: { ajv: { formats: requestFormats } },
    schemaController: { compilersFactory: { buildSerializer: reusedSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installNoSniff(app);
  app.setValidatorCompiler(validatorCompiler);
  // JSON only: text/plain bodies are refused with 415 rather than parsed.
  app.removeContentTypeParser(['text/plain']);
  installJsonBodyParser(app);
  installErrorHandling(app);
  installDraining(app);
  const metrics = createIngressMetrics(context);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  await registerOpenApi(app);
  registerHealthRoutes(app, context);
  registerOpenApiRoute(app);
  await app.register(projectsApi(context), { prefix: '/v1/projects' });
  await app.register(serverApi(context), { prefix: '/v1/projects/:projectId' });
  await app.register(sdkApi(context), { prefix: '/v1/sdk/projects/:projectId' });
  await registerAdminRoutes(app, context, metrics);
  await registerConsole(app);
  await registerWebSdk(app);
  return app;
}
