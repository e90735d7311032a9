import { afterAll, beforeAll } from 'vitest';

/**
 * Something the tests of a file share: started before them, closed after them. The object is handed out at once, so
 * that the file can name it (or destructure it) at the top, and is filled in place when the resource has started.
 */
export function useResource<Resource extends { close(): Promise<void> }>(start: () => Promise<Resource>): Resource {
  const resource = {} as Resource;
  beforeAll(async () => {
    Object.assign(resource, await start());
  });
  // A start that failed left nothing to close, and its error is the one worth reading.
  afterAll(() => resource.close?.());
  return resource;
}
