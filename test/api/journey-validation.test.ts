import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { journeyClient } from '../support/journeys.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });
const journeys = journeyClient(
  () => ingress,
  () => project,
);

const base = { name: 'Checked', entry: { event: 'checked' } };
const push = (id: string, extra: object = {}) => ({ id, type: 'push', body: 'hi', ...extra });

async function refusedAt(body: object, ...paths: string[]) {
  const response = await journeys.request('POST', '', body);
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('invalid_request');
  expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(
    expect.arrayContaining(paths),
  );
}

describe('journey definitions refused at save (CONTRACTS §18)', () => {
  it('names the field of each broken rule with a 400 and stores nothing', async () => {
    await refusedAt(
      {
        ...base,
        steps: [
          push('a'),
          { id: 'wait', type: 'wait', seconds: 0 },
          {
            id: 'wait',
            type: 'split',
            paths: [
              { name: 'x', percent: 60, next: 'a' },
              { name: 'y', percent: 30, next: 'exit' },
            ],
          },
          { id: 'gate', type: 'waitForEvent', event: 'paid', timeoutSeconds: 60, onEvent: 'a', onTimeout: 'nowhere' },
          { id: 'b', type: 'branch', match: 'all', conditions: [{ clicked: 'gate' }], onTrue: 'exit', onFalse: 'exit' },
          push('c', { title: '{{ unclosed', data: { from: 'reserved' } }),
        ],
      },
      '/steps/1/seconds',
      '/steps/2/paths',
      '/steps/3/onTimeout',
      '/steps/4/conditions/0/clicked',
      '/steps/5/title',
      '/steps/5/data/from',
    );
    await refusedAt({ ...base, steps: [] }, '/steps');
    await refusedAt({ ...base, steps: Array.from({ length: 51 }, (_, index) => push(`p${index}`)) }, '/steps');
    await refusedAt({ ...base, steps: [{ id: 'bad id!', type: 'push', body: 'x' }] }, '/steps/0/id');
    // "exit" names the journey's end: a step of that name would run again where a last wait ends the journey.
    await refusedAt(
      { ...base, steps: [push('exit', { next: 'w' }), { id: 'w', type: 'wait', seconds: 600 }] },
      '/steps/0/id',
    );
    await refusedAt({ ...base, steps: [push('p', { body: '   ' })] }, '/steps/0/body');
    // A journey tests content with a split step (CONTRACTS §19), not with a push step's variants.
    await refusedAt(
      {
        ...base,
        steps: [
          push('p', {
            variants: [
              { name: 'a', body: 'A' },
              { name: 'b', body: 'B' },
            ],
          }),
        ],
      },
      '/steps/0/variants',
    );
    await refusedAt({ ...base, reentry: { afterSeconds: 10 }, steps: [push('p')] }, '/reentry');
    await refusedAt({ ...base, audience: { segmentId: 'no-such-segment' }, steps: [push('p')] }, '/audience/segmentId');
    await refusedAt({ ...base, trigger: { event: 'x' }, steps: [push('p')] }, '/steps');
    expect((await journeys.request('GET')).body.data).toEqual([]);
  });

  it('refuses a loop with no wait in it, and takes one a wait breaks', async () => {
    await refusedAt(
      {
        ...base,
        steps: [
          push('a'),
          {
            id: 'b',
            type: 'branch',
            match: 'any',
            conditions: [{ tag: 't', op: 'exists' }],
            onTrue: 'a',
            onFalse: 'exit',
          },
        ],
      },
      '/steps/1/onTrue',
    );
    await journeys.create({
      ...base,
      steps: [
        push('a'),
        { id: 'pause', type: 'wait', seconds: 60 },
        {
          id: 'b',
          type: 'branch',
          match: 'any',
          conditions: [{ tag: 't', op: 'exists' }],
          onTrue: 'a',
          onFalse: 'exit',
        },
      ],
    });
  });

  it('describes journeys with steps in /openapi.json', async () => {
    const spec = (await ingress.request('GET', '/openapi.json')).body;
    const text = JSON.stringify(spec.paths['/v1/projects/{projectId}/journeys'].post);
    for (const field of ['waitForEvent', 'onTimeout', 'untilLocalTime', 'sameAs', 'reentry', 'percent'])
      expect(text).toContain(field);
    expect(spec.paths['/v1/projects/{projectId}/journeys/{id}/travellers/{subjectType}/{subjectId}']).toBeDefined();
  });
});
