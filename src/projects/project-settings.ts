import type { Models } from '../models/index.ts';
import {
  defaultProjectSettings,
  type ProjectSettings,
  type UpdateProjectSettingsBody,
} from '../schemas/project-settings.ts';
import { notFound } from '../errors.ts';

export const settingsFields = { defaultTimezone: 1, quietHours: 1, frequencyCap: 1 } as const;

/** As stored: a project created before the settings existed has none of them. */
export type StoredSettings = { [Field in keyof ProjectSettings]?: ProjectSettings[Field] | null };

export function settingsOf(stored: StoredSettings): ProjectSettings {
  return {
    defaultTimezone: stored.defaultTimezone ?? defaultProjectSettings.defaultTimezone,
    quietHours: stored.quietHours ?? null,
    frequencyCap: stored.frequencyCap ?? null,
  };
}

/** One atomic write of the fields given (the route validated them all first, so a bad field changes nothing). */
export async function updateProjectSettings(
  models: Models,
  projectId: string,
  changes: UpdateProjectSettingsBody,
): Promise<void> {
  const updated = await models.Project.updateOne({ _id: projectId }, { $set: changes });
  if (updated.matchedCount === 0) throw notFound(`No project "${projectId}".`);
}

/** A project's settings as the delivery workers read them: null when the project is gone. */
export async function readProjectSettings(models: Models, projectId: string): Promise<ProjectSettings | null> {
  const project = await models.Project.findById(projectId, settingsFields).lean<StoredSettings>();
  return project ? settingsOf(project) : null;
}
