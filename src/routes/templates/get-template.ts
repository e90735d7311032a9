import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { TemplateIdParams, TemplateView } from '../../schemas/template.ts';
import { toTemplateView } from '../../templates/template-store.ts';

export function registerGetTemplate(app: App, context: AppContext): void {
  app.get(
    '/templates/:templateId',
    {
      schema: { summary: 'Read a template', tags: ['templates'], params: TemplateIdParams, response: { 200: dataResponse(TemplateView), 404: ErrorResponse } },
    },
    async (request) => ({ data: toTemplateView(await context.templates.find(request.params.projectId, request.params.templateId)) }),
  );
}
