import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import { TemplateIdParams } from '../../schemas/template.ts';

export function registerDeleteTemplate(app: App, context: AppContext): void {
  app.delete(
    '/templates/:templateId',
    {
      schema: {
        summary: 'Delete a template; notifications already accepted keep their copy of its content',
        tags: ['templates'],
        params: TemplateIdParams,
        response: { 200: dataResponse(Type.Object({ id: Type.String(), deleted: Type.Boolean() })), 404: ErrorResponse },
      },
    },
    async (request) => {
      await context.templates.delete(request.params.projectId, request.params.templateId);
      return { data: { id: request.params.templateId, deleted: true } };
    },
  );
}
