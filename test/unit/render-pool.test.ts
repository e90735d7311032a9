import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { RenderPool } from '../../src/rendering/render-pool.ts';
import { wallLimitFactor } from '../../src/rendering/render-watchdog.ts';
import type { ScopeDevice } from '../../src/rendering/personalization-scope.ts';

const boundMs = 500;
/**
 * What a call takes by the clock beside its stopped renders (a thread's start, the modest renders): short on an idle
 * machine, but on a starved one the renders are stopped by the clock and the rest waits for processor time as they do.
 */
const besideTheStopsMs = 5_000;
const pool = new RenderPool({ threads: 2, timeoutMs: boundMs });
afterAll(() => pool.close());

const path = Array.from({ length: 512 }, () => 'a').join('.');
/** Minutes for liquidjs when the device's tags ask for it, nothing otherwise. */
const request = {
  content: {
    title: null,
    body: 'Hi {{ device.id }}{{ (1..device.tags.items) | has: device.tags.path }}',
    url: null,
    imageUrl: null,
  },
  data: {},
  entryEvent: null,
};
const modest = (deviceId: string): ScopeDevice => ({ deviceId, tags: { items: 3, path: 'a' } });
const costly = (deviceId: string): ScopeDevice => ({ deviceId, tags: { items: 1_000_000, path } });
const bodies = (renderings: Awaited<ReturnType<RenderPool['render']>>) =>
  renderings.map((rendering) => ('content' in rendering ? rendering.content.body : rendering.reason));

describe('the render pool', () => {
  it('fails only the devices past the bound, each at the bound, and renders the rest of their task', async () => {
    const started = Date.now();
    const renderings = await pool.render(request, [modest('a'), costly('b'), modest('c'), costly('d')], {
      projectId: 'p1',
    });
    expect(bodies(renderings)).toEqual([
      'Hi afalse',
      `render_timeout: the body took longer than ${boundMs} ms to render`,
      'Hi cfalse',
      `render_timeout: the body took longer than ${boundMs} ms to render`,
    ]);
    // The bound is processor time: each costly render ran for it at least, and by the clock for 10 times it at most.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * boundMs);
    expect(Date.now() - started).toBeLessThan(2 * wallLimitFactor * boundMs + besideTheStopsMs);
    expect(pool.threads).toHaveLength(2);
  });

  it('fails the devices left without rendering them once a message was stopped for maxStops devices', async () => {
    const started = Date.now();
    const renderings = await pool.render(request, [costly('a'), modest('b')], { projectId: 'p1', maxStops: 1 });
    expect(bodies(renderings)).toEqual([
      `render_timeout: the body took longer than ${boundMs} ms to render`,
      'render_timeout: not rendered, as the message ran past the bound for other devices',
    ]);
    expect(Date.now() - started).toBeLessThan(wallLimitFactor * boundMs + besideTheStopsMs);
  });

  it('stops a render past an engine limit, and fails the jobs left once the task has rendered for totalMs', async () => {
    // A million steps: liquidjs stops it at its 50 ms limit, tried twice, so the task has used more than 5 ms of its
    // thread's processor time after it, unless the thread had under a twentieth of a core.
    const nested = {
      ...request,
      content: {
        ...request.content,
        body: 'Hi{% for i in (1..device.tags.n) %}{% for j in (1..device.tags.n) %}x{% endfor %}{% endfor %}',
      },
    };
    const devices = [
      { deviceId: 'a', tags: { n: 1000 } },
      { deviceId: 'b', tags: { n: 1 } },
      { deviceId: 'c', tags: { n: 2 } },
    ];
    const renderings = await pool.render(nested, devices, { projectId: 'p1', totalMs: 5 });
    expect(renderings.map((rendering) => 'stopped' in rendering && rendering.stopped)).toEqual([true, true, true]);
    expect(bodies(renderings)).toEqual([
      expect.stringMatching(/^(template render|memory alloc) limit exceeded/),
      'render_timeout: the content took longer than 5 ms to render in all',
      'render_timeout: not rendered, as the message ran past the bound for other devices',
    ]);
    expect(bodies(await pool.render(nested, devices.slice(1), { projectId: 'p1', totalMs: 50 }))).toEqual([
      'Hix',
      'Hixxxx',
    ]);
  });

  it("renders another project's message at once while one project's costly renders hold a thread, and blames no render for its wait", async () => {
    // Threads of its own, both starting now: the shared pool's thread stopped by the test before may still be
    // restarting, and a thread's start under load can take longer than the bound.
    const fresh = new RenderPool({ threads: 2, timeoutMs: boundMs });
    onTestFinished(() => fresh.close());
    const settled: string[] = [];
    const costlyOnes = Promise.all(
      ['a', 'b'].map((deviceId) =>
        fresh.render(request, [costly(deviceId)], { projectId: 'hostile' }).finally(() => settled.push(deviceId)),
      ),
    );
    expect(bodies(await fresh.render(request, [modest('x')], { projectId: 'other' }))).toEqual(['Hi xfalse']);
    // Queued behind the costly ones, it would have waited for a thread until the first of them hit the bound.
    expect(settled).toEqual([]);
    // The second waited for the first (one thread per project) and still had its own whole bound.
    expect((await costlyOnes).flatMap(bodies)).toEqual([
      `render_timeout: the body took longer than ${boundMs} ms to render`,
      `render_timeout: the body took longer than ${boundMs} ms to render`,
    ]);
  });
});

describe('a starved render thread', () => {
  // A bound short enough that waiting several times it for a core stays quick.
  const shortMs = 100;
  const starved = new RenderPool({
    threads: 1,
    timeoutMs: shortMs,
    threadModule: new URL('../support/starved-render-thread.ts', import.meta.url),
  });
  afterAll(() => starved.close());
  const title = { ...request, content: { ...request.content, body: 'A {{ device.tags.name }}' } };
  const waitingFor = (starvedMs: number): ScopeDevice => ({ deviceId: 'a', tags: { name: 'title', starvedMs } });

  it('renders an ordinary title whose thread waited for a core past the bound: the bound counts the processor time it used', async () => {
    const renderings = await starved.render(title, [waitingFor(5 * shortMs), modest('b')], { projectId: 'p1' });
    expect(bodies(renderings)).toEqual(['A title', 'A ']);
    // A trial render's total is processor time as well.
    const trial = await starved.render(title, [waitingFor(3 * shortMs)], { projectId: 'p1', totalMs: shortMs });
    expect(bodies(trial)).toEqual(['A title']);
  });

  it('stops a render that has not finished by the clock at 10 times the bound, however little of the processor it had', async () => {
    expect(wallLimitFactor).toBe(10);
    const started = Date.now();
    const renderings = await starved.render(title, [waitingFor(60_000), modest('b')], { projectId: 'p1' });
    expect(bodies(renderings)).toEqual([`render_timeout: the body took longer than ${shortMs} ms to render`, 'A ']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10 * shortMs);
    expect(Date.now() - started).toBeLessThan(10 * shortMs + besideTheStopsMs);
  });
});

describe('renders shared within a task', () => {
  const rendered = async (body: string, devices: ScopeDevice[]) =>
    bodies(
      await pool.render(
        { content: { title: null, body, url: null, imageUrl: null }, data: {}, entryEvent: null },
        devices,
        {
          projectId: 'p-shared',
        },
      ),
    );

  it('gives each device the content for its own variables, however many devices share the ones a template reads', async () => {
    const devices: ScopeDevice[] = [
      { deviceId: 'a', userId: 'u1', tags: { plan: 'pro', name: 'Ada' } },
      { deviceId: 'b', userId: 'u1', tags: { plan: 'pro', name: 'Bo' } },
      { deviceId: 'c', userId: 'u2', tags: { plan: 'free', name: 'Ada' } },
      { deviceId: 'd', tags: { plan: 'pro' } },
    ];
    expect(await rendered('{{ device.tags.plan }}', devices)).toEqual(['pro', 'pro', 'free', 'pro']);
    expect(await rendered('{{ device.tags.plan }} {{ device.id }}', devices)).toEqual([
      'pro a',
      'pro b',
      'free c',
      'pro d',
    ]);
    expect(await rendered('{{ device.userId | default: "-" }}', devices)).toEqual(['u1', 'u1', 'u2', '-']);
    expect(await rendered('{% for tag in device.tags %}{{ tag[1] }}{% endfor %}', devices)).toEqual([
      'proAda',
      'proBo',
      'freeAda',
      'pro',
    ]);
    expect(await rendered('{{ device.tags.size }} {{ device.tags.plan }}', devices)).toEqual([
      '2 pro',
      '2 pro',
      '2 free',
      '1 pro',
    ]);
    expect(await rendered('{% assign t = device.tags %}{{ t.name | default: "?" }}', devices)).toEqual([
      'Ada',
      'Bo',
      'Ada',
      '?',
    ]);
  });
});
