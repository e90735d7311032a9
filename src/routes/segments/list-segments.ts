import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ListQuery, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { SegmentView } from '../../schemas/segment.ts';
import { toSegmentView } from '../../segments/segment-store.ts';

export function registerListSegments(app: App, context: AppContext): void {
  app.get(
    '/segments',
    {
      schema: {
        summary: 'List segments, newest first',
        tags: ['segments'],
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: dataResponse(Type.Array(SegmentView)), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: (await context.segments.list(request.params.projectId, request.query.limit)).map(toSegmentView) }),
  );
}
