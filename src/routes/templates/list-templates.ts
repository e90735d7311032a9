import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ListQuery, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { TemplateView } from '../../schemas/template.ts';
import { toTemplateView } from '../../templates/template-store.ts';

export function registerListTemplates(app: App, context: AppContext): void {
  app.get(
    '/templates',
    {
      schema: {
        summary: 'List templates, newest first',
        tags: ['templates'],
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: dataResponse(Type.Array(TemplateView)), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: (await context.templates.list(request.params.projectId, request.query.limit)).map(toTemplateView) }),
  );
}
