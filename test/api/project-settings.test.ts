import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ projects: { project: 'team', other: 'team' } });

const path = (id = project.projectId) => `/v1/projects/${id}`;
const read = () => ingress.request('GET', path(), { key: project.apiKey });
const patch = (body: unknown) => ingress.request('PATCH', `${path()}/settings`, { key: project.apiKey, body });

describe('project settings (CONTRACTS §15)', () => {
  it('start as UTC with quiet hours and the frequency cap off', async () => {
    const view = (await read()).body.data;
    expect(view).toMatchObject({ id: project.projectId, defaultTimezone: 'UTC', quietHours: null, frequencyCap: null });
  });

  it('change each field given, keep the others, and turn quiet hours and the cap off with null', async () => {
    const changed = await patch({
      defaultTimezone: 'Asia/Seoul',
      quietHours: { start: '22:00', end: '08:30' },
      frequencyCap: { max: 3, windowHours: 24 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({
      defaultTimezone: 'Asia/Seoul',
      quietHours: { start: '22:00', end: '08:30' },
      frequencyCap: { max: 3, windowHours: 24 },
    });
    expect((await patch({ frequencyCap: null })).status).toBe(200);
    expect((await read()).body.data).toMatchObject({
      defaultTimezone: 'Asia/Seoul',
      quietHours: { start: '22:00', end: '08:30' },
      frequencyCap: null,
    });
  });

  it.each([
    [{ defaultTimezone: 'Mars/Olympus' }, '/defaultTimezone'],
    [{ quietHours: { start: '22:00' } }, '/quietHours'],
    [{ quietHours: { start: '25:00', end: '07:00' } }, '/quietHours'],
    [{ frequencyCap: { max: 0, windowHours: 24 } }, '/frequencyCap'],
    [{ frequencyCap: { max: 2, windowHours: 721 } }, '/frequencyCap'],
    [{ defaultTimezone: 'UTC', frequencyCap: { max: 1001, windowHours: 1 } }, '/frequencyCap'],
  ])('answer %j with a 400 naming the field, and change nothing', async (body, field) => {
    const before = (await read()).body.data;
    const answer = await patch(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
    expect((await read()).body.data).toMatchObject({
      defaultTimezone: before.defaultTimezone,
      quietHours: before.quietHours,
      frequencyCap: before.frequencyCap,
    });
  });

  it('take up to 5 conversion events, filling in the window (24 h) and the attribution (send)', async () => {
    const conversions = [
      { event: 'purchase', valueField: 'amount' },
      { event: 'signup', windowHours: 720, attribution: 'click' },
      { event: 'a', windowHours: 1 },
      { event: 'b' },
      { event: 'c' },
    ];
    const changed = await patch({ conversions });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.conversions).toEqual([
      { event: 'purchase', windowHours: 24, attribution: 'send', valueField: 'amount' },
      { event: 'signup', windowHours: 720, attribution: 'click' },
      { event: 'a', windowHours: 1, attribution: 'send' },
      { event: 'b', windowHours: 24, attribution: 'send' },
      { event: 'c', windowHours: 24, attribution: 'send' },
    ]);
    expect((await read()).body.data.conversions).toHaveLength(5);
    expect((await patch({ conversions: [] })).body.data.conversions).toEqual([]);
  });

  it.each([
    [{ conversions: [1, 2, 3, 4, 5, 6].map((n) => ({ event: `e${n}` })) }, '/conversions'],
    [{ conversions: [{ event: 'purchase', windowHours: 0 }] }, '/conversions/0/windowHours'],
    [{ conversions: [{ event: 'purchase', windowHours: 721 }] }, '/conversions/0/windowHours'],
    [{ conversions: [{ event: 'purchase', windowHours: 1.5 }] }, '/conversions/0/windowHours'],
    [{ conversions: [{ event: 'purchase', attribution: 'open' }] }, '/conversions/0/attribution'],
    [{ conversions: [{ event: '' }] }, '/conversions/0/event'],
    [{ conversions: [{ event: 'purchase', valueField: 'a.b' }] }, '/conversions/0/valueField'],
    [{ conversions: [{ event: 'purchase', extra: 1 }] }, '/conversions/0/extra'],
    [{ conversions: [{ event: 'purchase' }, { event: 'purchase' }] }, '/conversions/1/event'],
    [{ conversions: { event: 'purchase' } }, '/conversions'],
  ])('answer conversions %j with a 400 naming the field, and change nothing', async (body, field) => {
    expect((await patch({ conversions: [{ event: 'kept' }] })).status).toBe(200);
    const answer = await patch(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
    expect((await read()).body.data.conversions).toEqual([{ event: 'kept', windowHours: 24, attribution: 'send' }]);
  });

  it("are a project's own: another project's key is refused", async () => {
    const answer = await ingress.request('PATCH', `${path()}/settings`, {
      key: other.apiKey,
      body: { defaultTimezone: 'Europe/Berlin' },
    });
    expect(answer.status).toBe(403);
  });

  it('are in the OpenAPI document', async () => {
    const openapi = (await ingress.request('GET', '/openapi.json')).body;
    const operation = openapi.paths['/v1/projects/{projectId}/settings'].patch;
    expect(Object.keys(operation.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'conversions',
      'defaultTimezone',
      'frequencyCap',
      'quietHours',
    ]);
  });
});
