import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { SegmentIdParams } from '../../schemas/segment.ts';

export function registerDeleteSegment(app: App, context: AppContext): void {
  app.delete(
    '/segments/:segmentId',
    {
      schema: {
        summary: 'Delete a segment; a send already fanning out keeps the devices it has queued',
        tags: ['segments'],
        params: SegmentIdParams,
        response: { 200: dataResponse(Type.Object({ id: Type.String(), deleted: Type.Boolean() })), 404: ErrorResponse },
      },
    },
    async (request) => {
      await context.segments.delete(request.params.projectId, request.params.segmentId);
      return { data: { id: request.params.segmentId, deleted: true } };
    },
  );
}
