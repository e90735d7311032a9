import { checks, printResult, runCheck } from './checks.ts';

/**
 * The checks side by side, each one's output printed whole when it ends; fails if any fails. The server's is the
 * longest: the others finish beside it. `--only-types` leaves Biome out.
 */
const results = await Promise.all(
  checks({ withBiome: !process.argv.includes('--only-types') }).map(async (check) => {
    const result = await runCheck(check);
    printResult(result);
    return result;
  }),
);
process.exitCode = results.every((result) => result.passed) ? 0 : 1;
