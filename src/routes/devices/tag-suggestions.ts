import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ProjectParams, dataResponse } from '../../schemas/common.ts';
import { TagSuggestion } from '../../schemas/tags.ts';
import { tagSampleSize, tagSuggestions } from '../../devices/tag-suggestions.ts';

export function registerTagSuggestions(app: App, context: AppContext): void {
  app.get(
    '/tag-suggestions',
    {
      schema: {
        operationId: 'listTagSuggestions',
        summary: "The tag keys and values on the project's newest devices, to suggest in conditions",
        description: `Read from the ${tagSampleSize} newest devices: at most 200 keys, each with how many of them carry it and its 20 most frequent values of at most 64 characters, keys carried by most first.`,
        tags: ['devices'],
        params: ProjectParams,
        response: { 200: dataResponse(Type.Array(TagSuggestion)) },
      },
    },
    async (request) => ({ data: await tagSuggestions(context.models, request.params.projectId) }),
  );
}
