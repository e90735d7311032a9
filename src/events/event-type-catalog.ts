import type { Models } from '../models/index.ts';
import type { EventTypeDocument } from '../models/event-type.ts';
import type { EventTypeView, StoredEventType } from '../schemas/events.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';

type Source = EventTypeView['source'];

const toEventTypeView = (entry: EventTypeDocument): StoredEventType => ({
  type: entry.type,
  source: entry.source,
  createdAt: entry.createdAt.toISOString(),
});

/**
 * Adds event types to a project's catalog; adding a type that is already there keeps its first source and time.
 * A worker remembers what it has added, so the catalog costs no write for the types a project sends all day.
 */
export class EventTypeCatalog {
  private readonly models: Models;
  private readonly known = new Set<string>();

  constructor(models: Models) {
    this.models = models;
  }

  async add(projectId: string, types: Iterable<string>, source: Source): Promise<void> {
    const fresh = [...new Set(types)].filter((type) => !this.known.has(`${projectId}\u0000${type}`));
    if (fresh.length === 0) return;
    const createdAt = new Date();
    const operations = fresh.map((type) => ({
      updateOne: {
        filter: { projectId, type },
        update: { $setOnInsert: { projectId, type, source, createdAt } },
        upsert: true,
      },
    }));
    // Two writers adding the same new type at once: one of them loses the upsert race, and the type is there.
    await ignoringDuplicateKeys(operations.length, () =>
      this.models.EventType.collection.bulkWrite(operations, { ordered: false }),
    );
    for (const type of fresh) this.known.add(`${projectId}\u0000${type}`);
  }

  async list(projectId: string): Promise<StoredEventType[]> {
    const entries = await this.models.EventType.find({ projectId }).sort({ type: 1 }).lean();
    return entries.map(toEventTypeView);
  }

  async find(projectId: string, type: string): Promise<StoredEventType | null> {
    const entry = await this.models.EventType.findOne({ projectId, type }).lean();
    return entry && toEventTypeView(entry);
  }
}
