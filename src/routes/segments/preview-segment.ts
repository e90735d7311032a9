import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { SegmentPreview } from '../../schemas/segment.ts';
import { ResourceIdParams } from '../resource-routes.ts';

export function registerPreviewSegment(app: App, context: AppContext): void {
  app.get(
    '/segments/:id/preview',
    {
      schema: {
        summary: 'How many subscribed devices the segment holds now, with a sample of their ids',
        tags: ['segments'],
        params: ResourceIdParams,
        response: { 200: dataResponse(SegmentPreview), 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await context.segments.preview(request.params.projectId, request.params.id) }),
  );
}
