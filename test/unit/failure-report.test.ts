import { describe, expect, it } from 'vitest';
import { reportFromFirstFailure } from '../../tools/checks/vitest-runs.ts';

const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
const passedFiles = Array.from({ length: 100 }, (_, index) => ` ✓ test/api/file-${index}.test.ts (3 tests) 120ms`);
const failures = [
  `${red('⎯⎯⎯⎯⎯⎯⎯')}\u001b[41m Failed Tests 1 \u001b[49m${red('⎯⎯⎯⎯⎯⎯⎯')}`,
  '',
  ' FAIL  test/api/experiments.test.ts > split 10 variants evenly',
  'AssertionError: expected 5 to be greater than 5',
  '',
  ' Test Files  1 failed | 155 passed (156)',
];

describe("npm test's repeat of a failed run's report", () => {
  it('is the run from its first failure heading on, colours kept, without the files that passed', () => {
    const report = reportFromFirstFailure([...passedFiles, ...failures].join('\n'));
    expect(report).toBe(failures.join('\n'));
  });

  it('starts at the first of several headings, so an unhandled error is repeated too', () => {
    const unhandled = ['⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯', 'Error: the worker exited'];
    const report = reportFromFirstFailure([...passedFiles, ...unhandled, ...failures].join('\n'));
    expect(report.split('\n').slice(0, 2)).toEqual(unhandled);
    expect(report).toContain('expected 5 to be greater than 5');
  });

  it("is the run's last 80 lines when it printed no heading (a run that crashed)", () => {
    const report = reportFromFirstFailure([...passedFiles, 'Error: vitest crashed'].join('\n'));
    expect(report.split('\n')).toEqual([...passedFiles.slice(-79), 'Error: vitest crashed']);
  });
});
