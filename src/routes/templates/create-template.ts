import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { TemplateBody, TemplateView } from '../../schemas/template.ts';
import { toTemplateView } from '../../templates/template-store.ts';

export function registerCreateTemplate(app: App, context: AppContext): void {
  app.post(
    '/templates',
    {
      schema: {
        summary: 'Create a message template (Liquid)',
        tags: ['templates'],
        params: ProjectParams,
        body: TemplateBody,
        response: { 200: dataResponse(TemplateView), 400: ErrorResponse },
      },
    },
    async (request) => ({ data: toTemplateView(await context.templates.create(request.params.projectId, request.body)) }),
  );
}
