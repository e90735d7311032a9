import { describe, expect, it } from 'vitest';
import { useIngress } from './support/ingress.ts';
import { matchesDataConditions } from '../src/conditions/match-data.ts';
import { dataConditionsFilter } from '../src/events/count-events.ts';
import type { EventDataCondition } from '../src/schemas/event-conditions.ts';

const { ingress } = useIngress();
const collection = () =>
  ingress.context.mongo.db!.collection<{ _id: number; data: Record<string, unknown> }>('match_data_probe');

/** Event data as stored: ISO times as dates, arrays of strings or numbers. */
const stored: Array<Record<string, unknown>> = [
  {},
  { coupon: null },
  { coupon: 'SPRING' },
  { coupon: 'spring' },
  { coupon: 10 },
  { coupon: ['SPRING', 'FALL'] },
  { coupon: [] },
  { coupon: true },
  { coupon: new Date('2024-04-19T05:23:56Z') },
  { other: 'SPRING' },
];

const conditions: EventDataCondition[] = [
  ...(['eq', 'ne'] as const).flatMap((op) =>
    [null, 'SPRING', 10, true, '2024-04-19T05:23:56Z'].map((value) => ({ field: 'coupon', op, value })),
  ),
  ...(['in', 'nin'] as const).flatMap((op) =>
    [[null], ['SPRING'], ['SPRING', null], [10, 'spring']].map((value) => ({ field: 'coupon', op, value })),
  ),
  ...(['gt', 'gte', 'lt', 'lte'] as const).flatMap((op) =>
    ['SPRING', 10, 'a'].map((value) => ({ field: 'coupon', op, value })),
  ),
  { field: 'coupon', op: 'exists' },
  { field: 'coupon', op: 'notExists' },
];

describe('a journey trigger matches the events a segment counts (src/conditions/match-data.ts)', () => {
  it('agrees with the MongoDB filter on every operator, null and a missing field included', async () => {
    await collection().insertMany(stored.map((data, index) => ({ _id: index, data })));
    for (const condition of conditions) {
      const byServer = (
        await collection()
          .find(dataConditionsFilter([condition]), { projection: { _id: 1 } })
          .toArray()
      )
        .map((document) => document._id)
        .sort((a, b) => a - b);
      const byMatcher = stored.flatMap((data, index) => (matchesDataConditions(data, [condition]) ? [index] : []));
      expect(byMatcher, JSON.stringify(condition)).toEqual(byServer);
    }
  });
});
