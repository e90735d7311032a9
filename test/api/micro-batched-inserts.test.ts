import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { MicroBatchedInserts } from '../../src/infra/micro-batched-inserts.ts';

const { ingress } = useIngress();

describe('MicroBatchedInserts', () => {
  const inserted = (name: string) => ingress.context.mongo.db!.collection<{ _id: string }>(name);

  it('sends the documents of callers waiting on an insert as the next one, each learning which were stored before', async () => {
    const probe = inserted('micro_batched_probe');
    await probe.insertOne({ _id: 'stored' });
    const inserts: number[] = [];
    const counting = {
      insertMany: (documents: object[], options: object) => {
        inserts.push(documents.length);
        return probe.insertMany(documents as never[], options);
      },
    };
    const batched = new MicroBatchedInserts(counting as never);
    const answers = await Promise.all([
      batched.insert([{ _id: 'first' }]),
      batched.insert([{ _id: 'second' }, { _id: 'stored' }]),
      batched.insert([{ _id: 'third' }]),
    ]);
    expect(answers).toEqual([[true], [true, false], [true]]);
    expect(inserts).toEqual([4]);
    expect((await probe.find().sort({ _id: 1 }).toArray()).map((document) => document._id)).toEqual([
      'first',
      'second',
      'stored',
      'third',
    ]);
  });

  it('fails only the caller whose document the server refused for another reason than a repeat', async () => {
    await ingress.context.mongo.db!.createCollection('micro_batched_validated', {
      validator: { $jsonSchema: { required: ['name'] } },
    });
    const batched = new MicroBatchedInserts(ingress.context.mongo.db!.collection('micro_batched_validated'));
    const [named, unnamed] = await Promise.allSettled([
      batched.insert([{ _id: 'named', name: 'kept' }]),
      batched.insert([{ _id: 'unnamed' }]),
    ]);
    expect(named).toEqual({ status: 'fulfilled', value: [true] });
    expect(unnamed).toMatchObject({ status: 'rejected', reason: { code: 121, name: 'MongoServerError' } });
    expect(await inserted('micro_batched_validated').countDocuments()).toBe(1);
  });
});
