import type { Models } from '../../src/models/index.ts';

/**
 * The models, with `flush` run once right after the first `find(...).lean()` of one of them has read its documents and
 * before its caller goes on to read Redis: the moment at which a reader of gathered counts could see a count in neither.
 */
export function flushingAfterFirstRead(models: Models, name: keyof Models, flush: () => Promise<void>): Models {
  let flushed = false;
  const model = new Proxy(models[name], {
    get(target, property, receiver) {
      if (property !== 'find') return Reflect.get(target, property, receiver);
      return (...args: unknown[]) => ({
        lean: async () => {
          const documents = await (target.find as (...a: unknown[]) => { lean(): Promise<unknown> })(...args).lean();
          if (!flushed) {
            flushed = true;
            await flush();
          }
          return documents;
        },
      });
    },
  });
  return { ...models, [name]: model };
}
