import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { SegmentDefinition, SegmentPreview } from '../../schemas/segment.ts';
import { ResourceIdParams } from '../resource-routes.ts';
import { assertRequestValid } from '../../http/invalid-request-details.ts';
import { segmentDefinitionErrors } from '../../segments/segment-conditions.ts';

export function registerPreviewSegment(app: App, context: AppContext): void {
  app.get(
    '/segments/:id/preview',
    {
      schema: {
        operationId: 'previewSegment',
        summary: 'How many subscribed devices the segment holds now, with a sample of their ids',
        tags: ['segments'],
        params: ResourceIdParams,
        response: { 200: dataResponse(SegmentPreview), 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await context.segments.preview(request.params.projectId, request.params.id) }),
  );

  app.post(
    '/segments/preview',
    {
      schema: {
        operationId: 'previewSegmentFilter',
        summary: 'Preview a segment definition before saving it: the count of subscribed devices and a sample',
        tags: ['segments'],
        params: ProjectParams,
        body: SegmentDefinition,
        response: { 200: dataResponse(SegmentPreview), 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      assertRequestValid(request, () => segmentDefinitionErrors(request.body));
      return { data: await context.segments.previewDefinition(request.params.projectId, request.body) };
    },
  );
}
