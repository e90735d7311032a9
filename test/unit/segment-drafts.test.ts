import { describe, expect, it } from 'vitest';
import type { EventCondition, SegmentView, TagCondition } from '../../src/schemas/segment.ts';
import {
  type DraftComparison,
  type DraftCondition,
  editorState,
  newEventCondition,
  toCondition,
  toDraft,
} from '../../web/console/screens/segments/draft.ts';

const tag = (comparison: Partial<DraftComparison>): DraftCondition => ({
  kind: 'tag',
  key: 'plan',
  op: 'eq',
  value: '',
  valueType: 'auto',
  ...comparison,
});

type EventDraft = Extract<DraftCondition, { kind: 'event' }>;
const purchase = (draft: Partial<EventDraft>): EventDraft => ({
  kind: 'event',
  event: 'purchase',
  withinDays: '30',
  countOp: 'gte',
  count: '1',
  where: [],
  ...draft,
});

describe("the segment builder's drafts (console)", () => {
  it('open a new segment as all of one blank tag condition, and a new event condition as at least once in 30 days', () => {
    expect(editorState(null)).toEqual({
      name: '',
      match: 'all',
      conditions: [{ kind: 'tag', key: '', op: 'eq', value: '', valueType: 'auto' }],
    });
    expect(newEventCondition()).toEqual(purchase({ event: '' }));
  });

  it('send a tag value as the number, text or list it was typed as', () => {
    expect(toCondition(tag({ value: '30' }))).toEqual({ tag: 'plan', op: 'eq', value: 30 });
    expect(toCondition(tag({ value: '007' }))).toEqual({ tag: 'plan', op: 'eq', value: '007' });
    expect(toCondition(tag({ value: '30', valueType: 'text' }))).toEqual({ tag: 'plan', op: 'eq', value: '30' });
    expect(toCondition(tag({ op: 'in', value: '"Washington, D.C.", 2134, "02134"' }))).toEqual({
      tag: 'plan',
      op: 'in',
      value: ['Washington, D.C.', 2134, '02134'],
    });
    expect(toCondition(tag({ op: 'exists', value: 'left over' }))).toEqual({ tag: 'plan', op: 'exists' });
  });

  it('send an event condition with its numbers, leaving out data conditions without a field', () => {
    const draft = purchase({
      where: [
        { key: 'amount', op: 'gte', value: '10', valueType: 'auto' },
        { key: '', op: 'eq', value: 'unfinished', valueType: 'auto' },
      ],
    });
    expect(toCondition(draft)).toEqual({
      event: 'purchase',
      withinDays: 30,
      count: { op: 'gte', value: 1 },
      where: [{ field: 'amount', op: 'gte', value: 10 }],
    });
    expect(toCondition({ ...draft, where: [] })).not.toHaveProperty('where');
  });

  it('send a blank count or number of days as the blank text the API refuses, never as 0 ("at least 0 times": every device)', () => {
    expect(toCondition(purchase({ count: '', withinDays: ' ' }))).toMatchObject({
      withinDays: ' ',
      count: { op: 'gte', value: '' },
    });
  });

  it('open every saved condition as a draft that sends it back unchanged', () => {
    const saved: Array<TagCondition | EventCondition> = [
      { tag: 'plan', op: 'eq', value: '30' },
      { tag: 'plan', op: 'eq', value: 30 },
      { tag: 'city', op: 'nin', value: ['Washington, D.C.', '02134', 2134, 'null'] },
      { tag: 'beta', op: 'eq', value: true },
      { tag: 'signedUpAt', op: 'gt', value: 1_700_000_000_000_000 },
      { tag: 'email', op: 'notExists' },
      {
        event: 'purchase',
        withinDays: 7,
        count: { op: 'lt', value: 3 },
        where: [
          { field: 'coupon', op: 'eq', value: null },
          { field: 'note', op: 'eq', value: ' padded ' },
        ],
      },
      { event: 'login', withinDays: 365, count: { op: 'eq', value: 0 } },
    ];
    for (const condition of saved) expect(toCondition(toDraft(condition))).toEqual(condition);
  });

  it('open a saved segment with its name, match and conditions', () => {
    const segment: SegmentView = {
      id: 's1',
      name: 'VIPs',
      match: 'any',
      conditions: [{ tag: 'group', op: 'eq', value: 'vip' }],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(editorState(segment)).toEqual({
      name: 'VIPs',
      match: 'any',
      conditions: [{ kind: 'tag', key: 'group', op: 'eq', value: 'vip', valueType: 'auto' }],
    });
  });
});
