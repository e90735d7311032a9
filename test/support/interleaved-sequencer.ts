import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Takes one from each list in turn, then what is left of the longer. */
function interleave<T>(first: T[], second: T[]): T[] {
  return Array.from({ length: Math.max(first.length, second.length) }, (_, index) => [
    ...first.slice(index, index + 1),
    ...second.slice(index, index + 1),
  ]).flat();
}

/**
 * vitest's order (by group, then the longest or largest file first), except that the files of the two projects
 * named here, which share a group, alternate: the pool then starts a file of the first beside files of the second
 * rather than queueing the first project's files behind one another's lock (test/support/lane-lock.ts).
 */
export function interleavedSequencer(firstProject: string, secondProject: string) {
  return class InterleavedSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const of = (name: string) => sorted.filter((file) => file.project.name === name);
      const others = sorted.filter((file) => file.project.name !== firstProject && file.project.name !== secondProject);
      return [...others, ...interleave(of(firstProject), of(secondProject))];
    }
  };
}
