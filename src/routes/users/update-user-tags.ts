import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { UpdateUserTagsBody, UpdateUserTagsResult } from '../../schemas/user-tags.ts';
import { updateUserTags } from '../../user-tags/update-user-tags.ts';

export function registerUpdateUserTags(app: App, context: AppContext): void {
  // The spec's sample command uses POST for the same operation (spec §4.2).
  for (const method of ['PATCH', 'POST'] as const) {
    app.route({
      method,
      url: '/users/tags',
      schema: {
        operationId: method === 'PATCH' ? 'updateUserTags' : 'postUserTags',
        summary: 'Change the tags of every device of a user (spec §4.2)',
        description: 'A null value deletes the tag. The answer shows the devices with their tags after the change.',
        tags: ['users'],
        params: ProjectParams,
        body: UpdateUserTagsBody,
        response: { 200: dataResponse(UpdateUserTagsResult), 400: ErrorResponse, 503: ErrorResponse },
      },
      handler: async (request) => {
        const job = { projectId: request.params.projectId, userId: request.body.userId, tags: request.body.tags };
        const devices = await updateUserTags(context, job);
        return { data: { devices } };
      },
    });
  }
}
