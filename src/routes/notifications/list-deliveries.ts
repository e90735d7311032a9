import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { DeliveryLogParams, DeliveryLogQuery, DeliverySummary, DeliveryView } from '../../schemas/delivery-log.ts';
import { deliverySummary } from '../../notifications/delivery-summary.ts';
import { deliveryLogPage } from '../../notifications/delivery-log-page.ts';
import { waitingEntries } from '../../notifications/waiting-pushes-view.ts';
import { deliveryLogCsv } from '../../notifications/delivery-log-export.ts';
import { invalidRequest } from '../../errors.ts';
import { exportMediaTypes } from '../devices/export-devices.ts';
import { documentFiles } from '../../http/file-bodies.ts';

export function registerListDeliveries(app: App, context: AppContext): void {
  app.get(
    '/notifications/:notificationId/deliveries',
    {
      config: { swaggerTransform: documentFiles({ answer: [exportMediaTypes.csv] }) },
      schema: {
        operationId: 'listDeliveries',
        summary: "A notification's delivery log: each device's outcome, kept 30 days",
        description:
          'In device id order; page with limit (default 100, at most 1000) and after: the last deviceId seen. ' +
          'Filter with outcome; outcome=waiting lists the pushes still waiting, with their reason and due time. ' +
          'format=csv streams the whole log (deviceId, platform, outcome, reason, at) as CSV.',
        tags: ['notifications'],
        params: DeliveryLogParams,
        querystring: DeliveryLogQuery,
        response: { 200: dataResponse(Type.Array(DeliveryView)), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { projectId, notificationId } = request.params;
      const { outcome } = request.query;
      if (request.query.format === 'csv') {
        if (outcome === 'waiting')
          throw invalidRequest('The waiting pushes are listed as JSON only: leave out format=csv.', [
            { path: '/format', message: 'csv takes every outcome but waiting' },
          ]);
        return (
          reply
            .type(exportMediaTypes.csv)
            .header('content-disposition', `attachment; filename="deliveries-${notificationId}.csv"`)
            // A stream is sent as it reads, past Fastify's response schema; documentFiles names its media type.
            .send(
              (await deliveryLogCsv(context.models, projectId, notificationId, { ...request.query, outcome })) as never,
            )
        );
      }
      if (outcome === 'waiting')
        return { data: await waitingEntries(context, projectId, notificationId, request.query) };
      return { data: await deliveryLogPage(context.models, projectId, notificationId, { ...request.query, outcome }) };
    },
  );
  app.get(
    '/notifications/:notificationId/delivery-summary',
    {
      schema: {
        operationId: 'getDeliverySummary',
        summary: "A notification's outcomes by platform and its failure reasons with counts, from its delivery log",
        tags: ['notifications'],
        params: DeliveryLogParams,
        response: { 200: dataResponse(DeliverySummary), 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: await deliverySummary(context.models, request.params.projectId, request.params.notificationId),
    }),
  );
}
