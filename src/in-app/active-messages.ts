import type { Models } from '../models/index.ts';
import type { SegmentDocument } from '../models/segment.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';

/** How long a process answers devices from its copy of a project's active messages and their segments. */
const keptMs = 2000;
const maxProjects = 10_000;

export interface ActiveSet {
  /** Highest priority first, then the newest. */
  messages: StoredInAppMessage[];
  segments: Map<string, Pick<SegmentDocument, 'match' | 'conditions'>>;
}

/** Highest priority first, then the newest; the index (projectId, status, priority) serves the read. */
export const activeMessagesQuery = (models: Models, projectId: string) =>
  models.InAppMessage.find({ projectId, status: 'active' })
    .sort({ priority: -1, createdAt: -1, _id: -1 })
    .lean<StoredInAppMessage[]>();

async function readActiveSet(models: Models, projectId: string): Promise<ActiveSet> {
  const messages = await activeMessagesQuery(models, projectId);
  const segmentIds = [...new Set(messages.flatMap((message) => (message.segmentId ? [message.segmentId] : [])))];
  const segments =
    segmentIds.length === 0 ? [] : await models.Segment.find({ _id: { $in: segmentIds }, projectId }).lean();
  return { messages, segments: new Map(segments.map((segment) => [segment._id, segment])) };
}

/**
 * A project's active messages and their segments, read once per project every two seconds however many devices
 * fetch, so a fetch costs the reads of its own device. A write through this process forgets its copy at once;
 * another ingress process sees the change within the two seconds.
 */
export class ActiveInAppMessages {
  private readonly models: Models;
  private readonly kept = new Map<string, { until: number; read: Promise<ActiveSet> }>();

  constructor(models: Models) {
    this.models = models;
  }

  forProject(projectId: string, now = Date.now()): Promise<ActiveSet> {
    const copy = this.kept.get(projectId);
    if (copy && copy.until > now) return copy.read;
    const read = readActiveSet(this.models, projectId);
    if (this.kept.size >= maxProjects) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(projectId, { until: now + keptMs, read });
    read.catch(() => this.kept.delete(projectId));
    return read;
  }

  forget(projectId: string): void {
    this.kept.delete(projectId);
  }
}

/** One copy per process and database connection, shared by the SDK route and the store that forgets it. */
export const activeInAppMessages = weakMemoize((models: Models) => new ActiveInAppMessages(models));
