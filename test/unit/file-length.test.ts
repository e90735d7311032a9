import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../tools/imports/import-graph.ts';

const maxLines = 200;

describe('src/', () => {
  it(`has no file over ${maxLines} lines`, () => {
    const long = [...importGraph(process.cwd(), ['src']).keys()]
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > maxLines);
    expect(long).toEqual([]);
  });
});
