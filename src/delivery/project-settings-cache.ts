import type { Models } from '../models/index.ts';
import type { ProjectSettings } from '../schemas/project-settings.ts';
import { readProjectSettings } from '../projects/project-settings.ts';

/**
 * A project's settings as the deliver worker applies them: read at most once a second per project, so a batch costs
 * no read of its own while a change reaches every push not yet handed to a gateway within a second.
 */
export class ProjectSettingsCache {
  private readonly models: Models;
  private readonly maxAgeMs: number;
  private readonly entries = new Map<string, { settings: Promise<ProjectSettings | null>; readAt: number }>();

  constructor(models: Models, maxAgeMs = 1000) {
    this.models = models;
    this.maxAgeMs = maxAgeMs;
  }

  get(projectId: string): Promise<ProjectSettings | null> {
    const cached = this.entries.get(projectId);
    if (cached && Date.now() - cached.readAt < this.maxAgeMs) return cached.settings;
    const settings = readProjectSettings(this.models, projectId);
    this.entries.set(projectId, { settings, readAt: Date.now() });
    settings.catch(() => this.entries.delete(projectId));
    return settings;
  }
}
