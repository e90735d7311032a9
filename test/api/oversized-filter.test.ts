import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { deviceFilterTest, type DeviceFilter } from '../../src/segments/oversized-filter.ts';
import { tagConditionFilter } from '../../src/segments/segment-filter.ts';
import { databaseSegmentResolver } from '../../src/targets/segment-resolver.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import type { TagCondition } from '../../src/schemas/segment.ts';

const { ingress } = useIngress();

describe('a device filter tested in the process (src/segments/oversized-filter.ts)', () => {
  it('agrees with the MongoDB filter on tags, _id lists, $and and $or', async () => {
    const probe = ingress.context.mongo.db!.collection<DeviceFilter & { _id: string }>('device_filter_probe');
    const devices = [
      { _id: 'p:a', projectId: 'p', isSubscribed: true, tags: { plan: 'pro', score: 90 } },
      { _id: 'p:b', projectId: 'p', isSubscribed: true, tags: { plan: 'free', score: 10 } },
      { _id: 'p:c', projectId: 'p', isSubscribed: false, tags: { plan: 'pro' } },
      { _id: 'p:d', projectId: 'p', isSubscribed: true, tags: {} },
      { _id: 'p:e', projectId: 'p', isSubscribed: true, tags: { plan: 7, 'edge key ': 'x' } },
      { _id: 'p:f', projectId: 'p', isSubscribed: true, tags: { plan: '😀' } },
      { _id: 'p:g', projectId: 'p', isSubscribed: true, tags: { plan: '\uFFFF' } },
      { _id: 'q:a', projectId: 'q', isSubscribed: true, tags: { plan: 'pro', score: 50 } },
    ];
    await probe.insertMany(devices);
    const tag = (condition: TagCondition) => tagConditionFilter(condition);
    const filters: DeviceFilter[] = [
      { projectId: 'p', isSubscribed: true, ...tag({ tag: 'plan', op: 'eq', value: 'pro' }) },
      { projectId: 'p', ...tag({ tag: 'plan', op: 'ne', value: 'pro' }) },
      { ...tag({ tag: 'score', op: 'gte', value: 50 }) },
      { ...tag({ tag: 'plan', op: 'gt', value: 'a' }) },
      // MongoDB orders strings by code point: a character past U+FFFF after U+E000–U+FFFF.
      { ...tag({ tag: 'plan', op: 'gt', value: '\uFFFF' }) },
      { ...tag({ tag: 'plan', op: 'lt', value: '😀' }) },
      { ...tag({ tag: 'plan', op: 'in', value: ['pro', 7] }) },
      { ...tag({ tag: 'plan', op: 'nin', value: ['pro'] }) },
      { ...tag({ tag: 'score', op: 'exists' }) },
      { ...tag({ tag: 'score', op: 'notExists' }) },
      { ...tag({ tag: 'edge key ', op: 'eq', value: 'x' }) },
      { _id: { $in: ['p:a', 'p:d', 'q:a'] } },
      { projectId: 'p', _id: { $nin: ['p:a', 'p:d'] } },
      {
        projectId: 'p',
        isSubscribed: true,
        $or: [
          { $and: [tag({ tag: 'plan', op: 'eq', value: 'pro' }), { _id: { $nin: ['p:a'] } }] },
          { _id: { $in: ['p:b', 'q:a'] } },
        ],
      },
    ];
    for (const filter of filters) {
      const byServer = (await probe.find(filter).toArray()).map((device) => device._id).sort();
      const test = deviceFilterTest(filter);
      const byProcess = devices.filter((device) => test(device)).map((device) => device._id);
      expect(byProcess, JSON.stringify(filter)).toEqual(byServer);
    }
  });

  it('previews and streams a segment whose event condition lists more devices than one command can carry (16 MB)', async () => {
    const project = await ingress.createProject('team');
    await registerDevices(ingress, project, [
      { id: 'quiet', platform: 'android', token: 'tok-quiet' },
      { id: 'busy', platform: 'ios', token: 'tok-busy' },
    ]);
    // 64,000 active subjects of 250 characters: their _ids take 18 MB, past what MongoDB takes in one command.
    const day = new Date(startOfUtcDay(new Date()).getTime() - 2 * dayMs);
    const counter = (subjectId: string) => ({
      _id: JSON.stringify([project.projectId, 1, 'device', subjectId, 'visit', day.getTime()]),
      projectId: project.projectId,
      subjectType: 'device',
      subjectId,
      type: 'visit',
      day,
      count: 1,
      flush: 1,
    });
    const { EventCounter } = ingress.context.models;
    await EventCounter.insertMany([counter('busy')]);
    for (let start = 0; start < 64_000; start += 8_000)
      await EventCounter.insertMany(
        Array.from({ length: 8_000 }, (_, index) => counter(`visitor-${start + index}-`.padEnd(250, 'x'))),
        { lean: true },
      );
    const visited = (op: 'eq' | 'gte') => [
      { event: 'visit', withinDays: 7, count: { op, value: op === 'eq' ? 0 : 1 } },
    ];
    const preview = async (conditions: object[]) => {
      const response = await ingress.request('POST', `/v1/projects/${project.projectId}/segments/preview`, {
        key: project.apiKey,
        body: { match: 'all', conditions },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data;
    };
    expect(await preview(visited('eq'))).toEqual({ count: 1, sample: ['quiet'] });
    expect(await preview(visited('gte'))).toEqual({ count: 1, sample: ['busy'] });

    const segment = await ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
      key: project.apiKey,
      body: { name: 'lapsed', match: 'any', conditions: visited('eq') },
    });
    const streamed: string[] = [];
    const resolver = databaseSegmentResolver(ingress.context);
    for await (const device of resolver.cursorFor(project.projectId, [segment.body.data.id], {
      afterId: null,
      projection: { deviceId: 1, pushToken: 1 },
    }))
      streamed.push(device.deviceId);
    expect(streamed).toEqual(['quiet']);
    // About 45 s alone, of which the 64,000 inserts take most; beside the rest of the suite, past 120 s.
  }, 300_000);
});
