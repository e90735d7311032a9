import type { Deps } from '../deps.ts';
import type { SubjectType } from '../schemas/events.ts';
import type { GatheredCounts } from '../infra/gathered-counts.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import { inChunks } from '../infra/chunks.ts';

/**
 * Daily event counts per subject and type are gathered in Redis (GatheredCounts), then flushed into MongoDB
 * (event_counters) once a minute by one flusher per project at a time. The write cost follows the number of distinct
 * (subject, type, day) in a flush rather than the number of events, and MongoDB only receives inserts. Readers add
 * what is still pending.
 *
 * Why a minute and not seconds: the counters are read for whole days before today only (today is counted from the
 * events themselves, see countEvents), so nobody waits for today's counts, and the longer a flush gathers, the
 * more events share a counter document. The one reader that needs the counters in MongoDB, a segment's $group over
 * them, flushes first when a day before its today still has counts pending (flushFinishedDays).
 */

export interface CountKey {
  subjectType: SubjectType;
  subjectId: string;
  type: string;
  /** Midnight UTC, in milliseconds. */
  day: number;
}

export type CountDeps = Pick<Deps, 'models' | 'redis' | 'config'>;

// Longer than a job's automatic retries take (10 attempts, exponential from 1 s: about 17 minutes), and short enough
// that one marker per request stays small in Redis at thousands of requests a second. A replay from the dashboard
// later than that finds countsRecorded in the job itself (ingestEvents).
export const recordedMarkerSeconds = 3600;

export const countField = (key: CountKey): string =>
  JSON.stringify([key.subjectType, key.subjectId, key.type, key.day]);

function parseCountField(field: string): CountKey {
  const [subjectType, subjectId, type, day] = JSON.parse(field) as [SubjectType, string, string, number];
  return { subjectType, subjectId, type, day };
}

const insertChunkSize = 1000;

/**
 * A flush's counts become counter documents of that flush, insert-only with the flush in the _id: a flush written
 * again inserts nothing twice.
 */
export const eventCounts: GatheredCounts<CountDeps> = {
  name: 'event-counts',
  flushEveryMs: 60 * 1000,
  async write(deps, projectId, flush, counts) {
    const documents = counts.map(([field, count]) => {
      const { subjectType, subjectId, type, day } = parseCountField(field);
      return {
        _id: JSON.stringify([projectId, flush, subjectType, subjectId, type, day]),
        projectId,
        subjectType,
        subjectId,
        type,
        day: new Date(day),
        count,
        flush,
      };
    });
    for (const chunk of inChunks(documents, insertChunkSize)) {
      // The raw collection is typed for ObjectId ids, and these documents' _id is a string: hence never[].
      await ignoringDuplicateKeys(chunk.length, () =>
        deps.models.EventCounter.collection.insertMany(chunk as never[], { ordered: false }),
      );
    }
  },
};
