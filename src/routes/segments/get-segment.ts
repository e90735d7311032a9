import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { SegmentIdParams, SegmentView } from '../../schemas/segment.ts';
import { toSegmentView } from '../../segments/segment-store.ts';

export function registerGetSegment(app: App, context: AppContext): void {
  app.get(
    '/segments/:segmentId',
    {
      schema: { summary: 'Read a segment', tags: ['segments'], params: SegmentIdParams, response: { 200: dataResponse(SegmentView), 404: ErrorResponse } },
    },
    async (request) => ({ data: toSegmentView(await context.segments.find(request.params.projectId, request.params.segmentId)) }),
  );
}
