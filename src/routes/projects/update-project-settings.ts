import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { ErrorResponse, ProjectParams, dataResponse } from '../../schemas/common.ts';
import { ProjectView } from '../../schemas/project.ts';
import { UpdateProjectSettingsBody } from '../../schemas/project-settings.ts';
import { findProjectView } from '../../projects/project-view.ts';
import { updateProjectSettings } from '../../projects/project-settings.ts';
import { releaseQuietHeld } from '../../queues/waiting-pushes.ts';

export function registerUpdateProjectSettings(app: App, context: AppContext): void {
  app.patch(
    '/settings',
    {
      schema: {
        operationId: 'updateProjectSettings',
        summary: 'Change when pushes may reach devices: default time zone, quiet hours, frequency cap',
        description:
          'Each field given replaces the stored one; null turns quiet hours or the frequency cap off. ' +
          'A change applies to every push not yet handed to a gateway. Answers the project view.',
        tags: ['projects'],
        params: ProjectParams,
        body: UpdateProjectSettingsBody,
        response: { 200: dataResponse(ProjectView), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      await updateProjectSettings(context.models, request.params.projectId, request.body);
      // Pushes held for the old quiet hours are judged again by the new ones at once (CONTRACTS §15).
      if (request.body.quietHours !== undefined || request.body.defaultTimezone !== undefined)
        await releaseQuietHeld(context, request.params.projectId);
      return { data: await findProjectView(context, request.params.projectId) };
    },
  );
}
