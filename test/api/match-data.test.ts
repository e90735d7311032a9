import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { matchesDataConditions } from '../../src/conditions/match-data.ts';
import { dataConditionsFilter } from '../../src/events/count-events.ts';
import type { EventDataCondition } from '../../src/schemas/event-conditions.ts';

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
  // Past U+FFFF and below: MongoDB orders strings by code point, JavaScript's < by UTF-16 unit.
  { coupon: '😀' },
  { coupon: '\uFFFF' },
  { coupon: '\uE000' },
];

const conditions: EventDataCondition[] = [
  ...(['eq', 'ne'] as const).flatMap((op) =>
    [null, 'SPRING', 10, true, '2024-04-19T05:23:56Z'].map((value) => ({ field: 'coupon', op, value })),
  ),
  ...(['in', 'nin'] as const).flatMap((op) =>
    [[null], ['SPRING'], ['SPRING', null], [10, 'spring']].map((value) => ({ field: 'coupon', op, value })),
  ),
  ...(['gt', 'gte', 'lt', 'lte'] as const).flatMap((op) =>
    ['SPRING', 10, 'a', '\uFFFF', '😀', '\uE000'].map((value) => ({ field: 'coupon', op, value })),
  ),
  { field: 'coupon', op: 'exists' },
  { field: 'coupon', op: 'notExists' },
];

/** The stored data each side finds for the conditions: the server by the segments' filter, the journeys' matcher. */
async function bothSides(where: EventDataCondition[]): Promise<{ byServer: number[]; byMatcher: number[] }> {
  const found = await collection()
    .find(dataConditionsFilter(where), { projection: { _id: 1 } })
    .toArray();
  const byServer = found.map((document) => document._id).sort((a, b) => a - b);
  const byMatcher = stored.flatMap((data, index) => (matchesDataConditions(data, where) ? [index] : []));
  return { byServer, byMatcher };
}

describe('a journey trigger matches the events a segment counts (src/conditions/match-data.ts)', () => {
  it('agrees with the MongoDB filter on every operator, null and a missing field included', async () => {
    await collection().insertMany(stored.map((data, index) => ({ _id: index, data })));
    for (const condition of conditions) {
      const { byServer, byMatcher } = await bothSides([condition]);
      expect(byMatcher, JSON.stringify(condition)).toEqual(byServer);
    }
  });

  it('agrees on two conditions on one field, each of which must hold', async () => {
    const pairs: EventDataCondition[][] = [
      [
        { field: 'coupon', op: 'ne', value: 'SPRING' },
        { field: 'coupon', op: 'ne', value: 10 },
      ],
      [
        { field: 'coupon', op: 'exists' },
        { field: 'coupon', op: 'notExists' },
      ],
      [
        { field: 'coupon', op: 'gte', value: 'A' },
        { field: 'coupon', op: 'lt', value: 'Z' },
      ],
      [
        { field: 'coupon', op: 'in', value: ['SPRING', 'spring'] },
        { field: 'coupon', op: 'nin', value: ['FALL'] },
      ],
    ];
    for (const pair of pairs) {
      const { byServer, byMatcher } = await bothSides(pair);
      expect(byMatcher, JSON.stringify(pair)).toEqual(byServer);
    }
    // Neither SPRING nor 10: not the documents holding one of them, in a list or alone.
    expect((await bothSides(pairs[0]!)).byServer).toEqual([0, 1, 3, 6, 7, 8, 9, 10, 11, 12]);
  });
});
