import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { ignoringDuplicateKeys } from '../../src/infra/ignore-duplicate-keys.ts';

const { ingress } = useIngress();
const collection = () => ingress.context.mongo.db!.collection<{ _id: string }>('duplicate_keys_probe');

describe('ignoringDuplicateKeys', () => {
  it('takes a repeat of documents already written as success, and writes the new ones beside them', async () => {
    await collection().insertMany([{ _id: 'a' }, { _id: 'b' }]);
    const again = [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }];
    await ignoringDuplicateKeys(again.length, () => collection().insertMany(again, { ordered: false }));
    expect((await collection().find().sort({ _id: 1 }).toArray()).map((document) => document._id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('rethrows a refusal that is not a duplicate, and a failure that accounts for fewer documents than were written', async () => {
    const notDuplicate = Object.assign(new Error('validation'), { writeErrors: [{ code: 121 }], insertedCount: 1 });
    await expect(ignoringDuplicateKeys(2, () => Promise.reject(notDuplicate))).rejects.toBe(notDuplicate);
    // The driver's shape when the server could not be reached: a bulk write error with no write errors at all.
    const unreachable = Object.assign(new Error('server selection timed out'), { writeErrors: [], insertedCount: 0 });
    await expect(ignoringDuplicateKeys(2, () => Promise.reject(unreachable))).rejects.toBe(unreachable);
    const partial = Object.assign(new Error('interrupted'), { writeErrors: [{ code: 11000 }], insertedCount: 1 });
    await expect(ignoringDuplicateKeys(5, () => Promise.reject(partial))).rejects.toBe(partial);
  });
});
