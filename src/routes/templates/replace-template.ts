import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { TemplateBody, TemplateIdParams, TemplateView } from '../../schemas/template.ts';
import { toTemplateView } from '../../templates/template-store.ts';

export function registerReplaceTemplate(app: App, context: AppContext): void {
  app.put(
    '/templates/:templateId',
    {
      schema: {
        summary: 'Replace a template; later sends use the new content',
        tags: ['templates'],
        params: TemplateIdParams,
        body: TemplateBody,
        response: { 200: dataResponse(TemplateView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: toTemplateView(await context.templates.replace(request.params.projectId, request.params.templateId, request.body)),
    }),
  );
}
