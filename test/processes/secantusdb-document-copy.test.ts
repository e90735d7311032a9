import { expect, it } from 'vitest';
import { runSecantusDbCheck } from '../support/secantusdb-checks.ts';

/*
 * The local server copies a document before an update applies to it with local/services/secantusdb_document_copy.py
 * instead of copy.deepcopy: a copy that shared a dict or list with the stored document would let an update change
 * what other readers of it see, and one that changed a value's type would store another value.
 * test/support/secantusdb_document_copy_check.py compares the two on random documents of every BSON type, read back
 * through BSON as the server reads them, and exits non-zero on any difference.
 */
it('copies every kind of stored document as deepcopy does, sharing no dict or list with it', async () => {
  const compared = await runSecantusDbCheck('secantusdb_document_copy_check.py');
  expect(compared.stdout).toContain('0 differences');
  expect(compared.exitCode).toBe(0);
});
