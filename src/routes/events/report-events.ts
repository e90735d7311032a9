import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, IdempotencyHeaders, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ReportEventsBody, ReportEventsResult } from '../../schemas/events.ts';
import { partitionEvents } from '../../events/validate-events.ts';
import { enqueueEvents } from '../../queues/event-ingest.ts';
import { ingestJobIdFor } from '../../events/events-idempotency.ts';

export function registerReportEvents(app: App, context: AppContext): void {
  // /track is the recommended server-side path and takes the same shapes (spec §4.5, CONTRACTS §5).
  for (const url of ['/events', '/track']) {
    app.post(
      url,
      {
        schema: {
          operationId: url === '/events' ? 'reportEvents' : 'trackEvents',
          summary: url === '/events' ? 'Report events (spec §4.4)' : 'Track events (spec §4.5)',
          description:
            'Valid events are accepted even when others are not; each refused event is listed in error with its index. ' +
            'Idempotency-Key: a repeat within an hour stores and counts nothing again; the key with another body is a 422 idempotency_key_reused.',
          tags: ['events'],
          params: ProjectParams,
          headers: IdempotencyHeaders,
          body: ReportEventsBody,
          response: { 200: dataResponse(ReportEventsResult), 400: ErrorResponse },
        },
      },
      async (request) => {
        const { projectId } = request.params;
        const { accepted, errors } = partitionEvents(request.body.events);
        const key = request.headers['idempotency-key'];
        const jobId = await ingestJobIdFor(context, projectId, null, key, request.body);
        if (accepted.length > 0) await enqueueEvents(context, projectId, accepted, jobId);
        return { data: { success: accepted.length, error: errors } };
      },
    );
  }
}
