import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { SegmentBody, SegmentIdParams, SegmentView } from '../../schemas/segment.ts';
import { toSegmentView } from '../../segments/segment-store.ts';

export function registerReplaceSegment(app: App, context: AppContext): void {
  app.put(
    '/segments/:segmentId',
    {
      schema: {
        summary: 'Replace a segment; sends that start later use the new definition',
        tags: ['segments'],
        params: SegmentIdParams,
        body: SegmentBody,
        response: { 200: dataResponse(SegmentView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toSegmentView(await context.segments.replace(request.params.projectId, request.params.segmentId, request.body)),
    }),
  );
}
