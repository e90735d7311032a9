import { describe, expect, it } from 'vitest';
import { mergedById } from '../../src/targets/merged-by-id.ts';

async function* stream(ids: string[]) {
  for (const _id of ids) yield { _id };
}

describe('mergedById', () => {
  it('streams several _id-ordered streams as one in _id order, empty ones included', async () => {
    const merged: string[] = [];
    for await (const { _id } of mergedById([stream(['p:b', 'p:e']), stream([]), stream(['p:a', 'p:c', 'p:f'])]))
      merged.push(_id);
    expect(merged).toEqual(['p:a', 'p:b', 'p:c', 'p:e', 'p:f']);
  });
});
