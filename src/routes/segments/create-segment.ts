import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { SegmentBody, SegmentView } from '../../schemas/segment.ts';
import { toSegmentView } from '../../segments/segment-store.ts';

export function registerCreateSegment(app: App, context: AppContext): void {
  app.post(
    '/segments',
    {
      schema: {
        summary: 'Create a segment of devices by tags and event conditions (CONTRACTS §7)',
        tags: ['segments'],
        params: ProjectParams,
        body: SegmentBody,
        response: { 200: dataResponse(SegmentView), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: toSegmentView(await context.segments.create(request.params.projectId, request.body)) }),
  );
}
