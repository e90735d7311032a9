/**
 * Streams that are each in ascending _id order, as one stream in that order: the fan-out resumes after an _id, so
 * its targets must come in _id order however many queries read them. Each stream is read as the merge needs it, so
 * memory holds a batch per stream, not the whole audience.
 */
export async function* mergedById<T extends { _id: string }>(streams: AsyncIterable<T>[]): AsyncIterable<T> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
  for (;;) {
    let next = -1;
    for (const [index, head] of heads.entries())
      if (!head.done && (next === -1 || head.value._id < (heads[next]!.value as T)._id)) next = index;
    if (next === -1) return;
    yield heads[next]!.value as T;
    heads[next] = await iterators[next]!.next();
  }
}
