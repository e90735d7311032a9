import { countKeys, flushIdField, type CountStore } from './gathered-counts.ts';

/** Where the project's flushes stand: the last number given, whether a flush is under way, and its number if any. */
export interface FlushMark {
  sequence: string | null;
  flushing: boolean;
  flushId: number | null;
}

/**
 * What Redis holds beside the database: counts pending, those of the flush under way, and where the flushes stood when
 * they were read (in the same MULTI; `mark.flushId` is the number of the flush whose counts `flushing` holds).
 */
export interface PendingRead {
  pending: Map<string, number>;
  flushing: Map<string, number>;
  mark: FlushMark;
}

/** The replies of a MULTI, failing on the first command that failed. */
function repliesOf(replies: Array<[error: Error | null, reply: unknown]> | null): unknown[] {
  if (replies === null) throw new Error('Redis discarded the transaction');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

const readMap = (fields: string[], values: Array<string | null>) =>
  new Map(fields.flatMap((field, index) => (values[index] ? [[field, Number(values[index])] as const] : [])));

type Multi = ReturnType<CountStore['redis']['multi']>;
type Names = ReturnType<typeof countKeys>;

/** Adds the reads of where the flushes stand to a MULTI: their three replies, last, are what flushMarkOf takes. */
const readingFlushMark = (multi: Multi, names: Names) =>
  multi.get(names.flushSequence).exists(names.flushing).hget(names.flushing, flushIdField);

function flushMarkOf([sequence, flushing, flushId]: unknown[]): FlushMark {
  return {
    sequence: sequence as string | null,
    flushing: flushing === 1,
    flushId: flushId === null ? null : Number(flushId),
  };
}

// Both hashes are read in one MULTI, with where the flushes stand: a flush's move of pending aside falls before or
// after the read, so no count is seen in both or in neither.

/** The given fields' counts still in Redis. */
export async function readPendingCounts(
  store: CountStore,
  counts: { name: string },
  projectId: string,
  fields: string[],
): Promise<PendingRead> {
  const names = countKeys(store, counts, projectId);
  const [pending, flushing, ...mark] = repliesOf(
    await readingFlushMark(
      store.redis
        .multi()
        .hmget(names.pending, ...fields)
        .hmget(names.flushing, ...fields),
      names,
    ).exec(),
  );
  return {
    pending: readMap(fields, pending as Array<string | null>),
    flushing: readMap(fields, flushing as Array<string | null>),
    mark: flushMarkOf(mark),
  };
}

/** Every count of the project still in Redis: for a kind whose hash stays small (a few fields a day). */
export async function readAllPendingCounts(
  store: CountStore,
  counts: { name: string },
  projectId: string,
): Promise<PendingRead> {
  const names = countKeys(store, counts, projectId);
  const [pending, flushing, ...mark] = repliesOf(
    await readingFlushMark(store.redis.multi().hgetall(names.pending).hgetall(names.flushing), names).exec(),
  );
  const asNumbers = (hash: Record<string, string>) =>
    new Map(Object.entries(hash).map(([field, count]) => [field, Number(count)]));
  const flushingCounts = asNumbers(flushing as Record<string, string>);
  flushingCounts.delete(flushIdField);
  return { pending: asNumbers(pending as Record<string, string>), flushing: flushingCounts, mark: flushMarkOf(mark) };
}

/**
 * A field's count in Redis that the database does not hold yet: its pending count, and its count in the flush under
 * way unless that flush already wrote it (a stored document carrying the flush's number says so).
 */
export function notYetStored(read: PendingRead, field: string, writtenByFlush: boolean): number {
  return (read.pending.get(field) ?? 0) + (writtenByFlush ? 0 : (read.flushing.get(field) ?? 0));
}

/** The fields in Redis, pending or in the flush under way. */
export const pendingFields = (read: PendingRead): Set<string> =>
  new Set([...read.pending.keys(), ...read.flushing.keys()]);

/** Where the project's flushes stand before a read. */
async function flushMark(store: CountStore, counts: { name: string }, projectId: string): Promise<FlushMark> {
  const names = countKeys(store, counts, projectId);
  return flushMarkOf(repliesOf(await readingFlushMark(store.redis.multi(), names).exec()));
}

/** Reads started again when flushes keep finishing under them; the last attempt's answer is taken. */
const readAttempts = 3;

/**
 * Runs `read` (the documents first, then the counts in Redis, last) again while a flush finished, or was numbered, as
 * it ran: that flush may have written counts after the documents were read and removed them from Redis before Redis
 * was. Where the flushes stood after is the mark its Redis read took. A flush under way throughout (the same number,
 * or none yet: a flush is numbered before it writes) is accounted for by the number its documents carry, which `read`
 * is given so that it can tell them in the documents it reads.
 */
export async function withoutFlushBetween<T extends { pending: PendingRead }>(
  store: CountStore,
  counts: { name: string },
  projectId: string,
  read: (flushUnderWay: number | null) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await flushMark(store, counts, projectId);
    const answer = await read(before.flushId);
    const after = answer.pending.mark;
    const sameFlush = !before.flushing || (after.flushing && after.flushId === before.flushId);
    if ((after.sequence === before.sequence && sameFlush) || attempt === readAttempts) return answer;
  }
}
