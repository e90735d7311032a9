import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { RotatedKeys } from '../../schemas/project.ts';
import { rotateKeys } from '../../projects/rotate-keys.ts';

export function registerRotateProjectKeys(app: App, context: AppContext): void {
  app.post(
    '/keys/rotate',
    {
      schema: {
        operationId: 'rotateProjectKeys',
        summary: 'Issue new server and client keys and revoke the old ones at once',
        description: 'The answer is the only time the new keys are shown: only their hashes are stored.',
        tags: ['projects'],
        params: ProjectParams,
        response: { 200: dataResponse(RotatedKeys), 404: ErrorResponse },
      },
    },
    async (request) => ({ data: await rotateKeys(context.models, context.keyCache, request.params.projectId) }),
  );
}
