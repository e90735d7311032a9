import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const maxLines = 200;

/** Every TypeScript file under the folder, relative to the root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(process.cwd(), join(entry.parentPath, entry.name)));
}

describe.each(['src', 'web'])('%s/', (folder) => {
  it(`has no file over ${maxLines} lines`, () => {
    const long = sourceFiles(folder)
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > maxLines);
    expect(long).toEqual([]);
  });
});
