import type { Models } from '../models/index.ts';
import {
  defaultProjectSettings,
  type ProjectSettings,
  type UpdateProjectSettingsBody,
} from '../schemas/project-settings.ts';
import { invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import { withConversionDefaults, type ConversionSettings } from '../schemas/conversions.ts';

export const settingsFields = { defaultTimezone: 1, quietHours: 1, frequencyCap: 1, conversions: 1 } as const;

/** As stored: a project created before the settings existed has none of them. */
export type StoredSettings = { [Field in keyof ProjectSettings]?: ProjectSettings[Field] | null };

export function settingsOf(stored: StoredSettings): ProjectSettings {
  return {
    defaultTimezone: stored.defaultTimezone ?? defaultProjectSettings.defaultTimezone,
    quietHours: stored.quietHours ?? null,
    frequencyCap: stored.frequencyCap ?? null,
    conversions: stored.conversions ?? [],
  };
}

/** An event named twice would be counted twice for one conversion. */
function repeatedConversionErrors(conversions: ConversionSettings): ErrorDetail[] {
  const seen = new Set<string>();
  return conversions.flatMap(({ event }, index) => {
    const repeated = seen.has(event);
    seen.add(event);
    return repeated ? [{ path: `/conversions/${index}/event`, message: 'names an event already in the list' }] : [];
  });
}

/** One atomic write of the fields given, all validated first, so a bad field changes nothing. */
export async function updateProjectSettings(
  models: Models,
  projectId: string,
  { conversions, ...changes }: UpdateProjectSettingsBody,
): Promise<void> {
  const repeated = repeatedConversionErrors(conversions ?? []);
  if (repeated.length > 0) throw invalidRequest('The settings are not valid; see details for each field.', repeated);
  const set = conversions === undefined ? changes : { ...changes, conversions: withConversionDefaults(conversions) };
  const updated = await models.Project.updateOne({ _id: projectId }, { $set: set });
  if (updated.matchedCount === 0) throw notFound(`No project "${projectId}".`);
}

/** A project's settings as the delivery workers read them: null when the project is gone. */
export async function readProjectSettings(models: Models, projectId: string): Promise<ProjectSettings | null> {
  const project = await models.Project.findById(projectId, settingsFields).lean<StoredSettings>();
  return project ? settingsOf(project) : null;
}
