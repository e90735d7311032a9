import type { Models } from '../models/index.ts';
import type { ProjectSettings } from '../schemas/project-settings.ts';
import { readProjectSettings } from './project-settings.ts';
import { ShortLivedCache } from '../infra/short-lived-cache.ts';

/**
 * A project's settings as the deliver worker applies them: read at most once a second per project, so a batch costs
 * no read of its own while a change reaches every push not yet handed to a gateway within a second.
 */
export class ProjectSettingsCache {
  private readonly models: Models;
  private readonly entries: ShortLivedCache<ProjectSettings | null>;

  constructor(models: Models, maxAgeMs = 1000) {
    this.models = models;
    this.entries = new ShortLivedCache(maxAgeMs);
  }

  get(projectId: string): Promise<ProjectSettings | null> {
    return this.entries.get(projectId, () => readProjectSettings(this.models, projectId));
  }
}
