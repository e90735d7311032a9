import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { Config } from '../config.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';
import type { InAppMessageBody, InAppMessageView } from '../schemas/in-app-message.ts';
import { invalidRequest, notFound } from '../errors.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';
import { inAppMessageErrors } from './in-app-message-rules.ts';
import { activeInAppMessages } from './active-messages.ts';
import { trialRenderErrors } from '../rendering/trial-render.ts';
import { withRedisLock } from '../infra/redis-lock.ts';
import { redisKeys } from '../infra/redis-keys.ts';

type StoreDeps = Pick<Deps, 'models' | 'renderer' | 'redis'> & { config: Pick<Config, 'queuePrefix'> };

/** CONTRACTS §16: every SDK fetch weighs the project's active messages. */
export const maxActiveInAppMessages = 100;

const missing = (id: string) => notFound(`No in-app message "${id}" in this project.`);

const isoOrNull = (time: Date | null | undefined) => time?.toISOString() ?? null;

export function toInAppMessageView(message: StoredInAppMessage): InAppMessageView {
  return {
    id: message._id,
    name: message.name,
    status: message.status,
    layout: message.layout,
    title: message.title ?? null,
    body: message.body,
    imageUrl: message.imageUrl ?? null,
    buttons: message.buttons,
    trigger: message.trigger,
    segmentId: message.segmentId ?? null,
    startAt: isoOrNull(message.startAt),
    endAt: isoOrNull(message.endAt),
    frequency: message.frequency,
    priority: message.priority ?? 0,
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
  };
}

function storedFields(input: InAppMessageBody) {
  return {
    name: input.name,
    status: input.status,
    layout: input.layout,
    title: input.title ?? null,
    body: input.body,
    imageUrl: input.imageUrl ?? null,
    buttons: input.buttons ?? [],
    trigger: 'event' in input.trigger ? { event: input.trigger.event! } : { on: 'session_start' as const },
    segmentId: input.segmentId ?? null,
    startAt: input.startAt ? new Date(input.startAt) : null,
    endAt: input.endAt ? new Date(input.endAt) : null,
    frequency: input.frequency,
    priority: input.priority ?? 0,
  };
}

/**
 * In-app messages are checked when written (Liquid, its trial render, buttons, schedule, segment), so the SDK route
 * never meets a broken one: content too costly to render would be left out of every answer.
 */
export class InAppMessageStore {
  private readonly deps: StoreDeps;

  constructor(deps: StoreDeps) {
    this.deps = deps;
  }

  private get models() {
    return this.deps.models;
  }

  /** A write that makes a message active counts the other active ones and writes under the project's lock. */
  private withinActiveBound<T>(
    projectId: string,
    input: InAppMessageBody,
    id: string | undefined,
    write: () => Promise<T>,
  ): Promise<T> {
    if (input.status !== 'active') return write();
    const lock = redisKeys.projectLimit(this.deps.config.queuePrefix, projectId, 'active-in-app');
    return withRedisLock(this.deps.redis, lock, async () => {
      await this.assertRoomForActive(projectId, id);
      return write();
    });
  }

  private async checked(projectId: string, input: InAppMessageBody) {
    const details = inAppMessageErrors(input);
    if (details.length === 0) {
      const content = { title: input.title ?? null, body: input.body, url: null, imageUrl: null };
      details.push(...(await trialRenderErrors(this.deps.renderer, projectId, content)));
    }
    if (details.length > 0)
      throw invalidRequest('The in-app message is not valid; see details for each field.', details);
    if (input.segmentId && !(await this.models.Segment.exists({ _id: input.segmentId, projectId })))
      throw notFound(`No segment "${input.segmentId}" in this project.`);
    return storedFields(input);
  }

  private async assertRoomForActive(projectId: string, id: string | undefined): Promise<void> {
    const others = { projectId, status: 'active' as const, ...(id !== undefined && { _id: { $ne: id } }) };
    if ((await this.models.InAppMessage.countDocuments(others)) < maxActiveInAppMessages) return;
    throw invalidRequest(
      `A project has at most ${maxActiveInAppMessages} active in-app messages; pause or delete one first.`,
      [
        {
          path: '/status',
          message: `cannot be "active": the project already has ${maxActiveInAppMessages} active messages`,
        },
      ],
    );
  }

  async create(projectId: string, input: InAppMessageBody): Promise<StoredInAppMessage> {
    const fields = await this.checked(projectId, input);
    const document = await this.withinActiveBound(projectId, input, undefined, () =>
      this.models.InAppMessage.create({ _id: randomUUID(), projectId, ...fields }),
    );
    activeInAppMessages(this.models).forget(projectId);
    return document.toObject() as StoredInAppMessage;
  }

  private readonly listing = newestFirstListing<StoredInAppMessage>((filter, count) =>
    this.models.InAppMessage.find(filter).sort(newestFirst).limit(count).lean<StoredInAppMessage[]>(),
  );
  readonly list = this.listing.list;
  readonly boundary = this.listing.boundary;

  async find(projectId: string, id: string): Promise<StoredInAppMessage> {
    const message = await this.models.InAppMessage.findOne({ _id: id, projectId }).lean<StoredInAppMessage>();
    if (!message) throw missing(id);
    return message;
  }

  async replace(projectId: string, id: string, input: InAppMessageBody): Promise<StoredInAppMessage> {
    const fields = await this.checked(projectId, input);
    const message = await this.withinActiveBound(projectId, input, id, () =>
      this.models.InAppMessage.findOneAndUpdate(
        { _id: id, projectId },
        { $set: fields },
        { returnDocument: 'after' },
      ).lean<StoredInAppMessage>(),
    );
    activeInAppMessages(this.models).forget(projectId);
    if (!message) throw missing(id);
    return message;
  }

  async delete(projectId: string, id: string): Promise<void> {
    const result = await this.models.InAppMessage.deleteOne({ _id: id, projectId });
    activeInAppMessages(this.models).forget(projectId);
    if (result.deletedCount === 0) throw missing(id);
  }
}
