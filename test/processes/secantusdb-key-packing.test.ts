import { expect, it } from 'vitest';
import { runSecantusDbCheck } from '../support/secantusdb-checks.ts';

/*
 * The local server's WiredTiger keys and values are packed by local/services/secantusdb_key_packing.py instead of
 * wiredtiger/packing.py: a key packed differently would file an index entry or a document where no read finds it.
 * test/support/secantusdb_key_packing_check.py compares the two on random values of every format SecantusDB's tables
 * use (strings with NULs and non-ASCII, empty and long byte strings, integers at each of WiredTiger's encoding
 * boundaries), and on values packing.py converts or refuses, and exits non-zero on any difference.
 */
it("packs and unpacks every key and value format of SecantusDB's tables byte for byte as WiredTiger's own packing does", async () => {
  const compared = await runSecantusDbCheck('secantusdb_key_packing_check.py');
  expect(compared.stdout).toContain('0 differences');
  expect(compared.exitCode).toBe(0);
});
