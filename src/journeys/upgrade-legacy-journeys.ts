import type { Deps } from '../deps.ts';
import { journeyVersionId } from '../models/journey.ts';
import { definitionOf } from './legacy-journey.ts';
import { bumpJourneyVersion } from './journey-version.ts';
import type { JourneyBody } from '../schemas/journey.ts';

/** The fields only the first form of a stored journey has, removed once it is stored as steps. */
const legacyStoredFields = [
  'trigger',
  'delaySeconds',
  'templateId',
  'title',
  'body',
  'url',
  'imageUrl',
  'active',
  'ignoreQuietHours',
  'ignoreFrequencyCap',
  'options',
];

/** A journey the previous release stored (its message options nested in `options`) as the body that made it. */
function bodyOf(stored: Record<string, unknown>): JourneyBody {
  const { _id, projectId, createdAt, updatedAt, options, ...fields } = stored;
  return { ...(options as object | undefined), ...fields } as JourneyBody;
}

/**
 * Journeys stored by the previous release (a trigger and one message, no steps) become version 1 of the same journey
 * in the form of CONTRACTS §18, at start-up, before a worker reads them: the list, the event-ingest matching and the
 * step worker then know one form. The version is stored before the journey points at it, and only a journey still in
 * the first form is rewritten, so a start-up that dies half-way or runs in two processes at once converts each once.
 */
export async function upgradeLegacyJourneys(deps: Pick<Deps, 'models' | 'redis' | 'config'>): Promise<number> {
  const { Journey, JourneyVersion } = deps.models;
  const legacy = await Journey.collection.find({ steps: { $exists: false } }).toArray();
  for (const stored of legacy) {
    const journeyId = String(stored._id);
    const projectId = String(stored.projectId);
    const { status, ...definition } = definitionOf(bodyOf(stored));
    await JourneyVersion.updateOne(
      { _id: journeyVersionId(journeyId, 1) },
      { $setOnInsert: { projectId, journeyId, version: 1, ...definition } },
      { upsert: true },
    );
    await Journey.collection.updateOne(
      { _id: stored._id, steps: { $exists: false } },
      {
        $set: { ...definition, status, version: 1 },
        $unset: Object.fromEntries(legacyStoredFields.map((field) => [field, ''])),
      },
    );
    await bumpJourneyVersion(deps, projectId);
  }
  return legacy.length;
}
