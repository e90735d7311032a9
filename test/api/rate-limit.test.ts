import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';

const sharedConfig = testConfig();
const { ingress: first } = useIngress({ config: sharedConfig });
const { ingress: second } = useIngress({ config: sharedConfig });

const devicePath = (projectId: string) => `/v1/projects/${projectId}/devices/someone`;

describe('plan rate limits (CONTRACTS §2)', () => {
  it('lets exactly 100 server API calls through per minute on starter, across two ingress processes', async () => {
    const project = await first.createProject('starter');
    const calls = Array.from({ length: 130 }, (_, index) =>
      (index % 2 === 0 ? first : second).request('GET', devicePath(project.projectId), { key: project.apiKey }),
    );
    const responses = await Promise.all(calls);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);

    const refused = responses.find((response) => response.status === 429)!;
    expect(refused.body.error.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('100');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBe(retryAfter);
  });

  it('counts down RateLimit-Remaining on each answer', async () => {
    const project = await first.createProject('starter');
    const remaining: string[] = [];
    for (let call = 0; call < 3; call++) {
      const response = await second.request('GET', devicePath(project.projectId), { key: project.apiKey });
      remaining.push(response.headers.get('ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['99', '98', '97']);
  });

  it('keeps projects apart: one project at its limit does not slow another', async () => {
    const busy = await first.createProject('starter');
    const quiet = await first.createProject('starter');
    await Promise.all(
      Array.from({ length: 101 }, () => first.request('GET', devicePath(busy.projectId), { key: busy.apiKey })),
    );
    expect((await first.request('GET', devicePath(busy.projectId), { key: busy.apiKey })).status).toBe(429);
    expect((await first.request('GET', devicePath(quiet.projectId), { key: quiet.apiKey })).status).toBe(404);
  });

  it('does not limit the team plan', async () => {
    const project = await first.createProject('team');
    const responses = await Promise.all(
      Array.from({ length: 150 }, () => second.request('GET', devicePath(project.projectId), { key: project.apiKey })),
    );
    expect(responses.every((response) => response.status === 404)).toBe(true);
    expect(responses[0]!.headers.get('ratelimit-limit')).toBeNull();
  });

  it('does not count SDK calls against the server API limit', async () => {
    const project = await first.createProject('starter');
    const sdkPath = `/v1/sdk/projects/${project.projectId}/devices/phone`;
    for (let call = 0; call < 5; call++) {
      await first.request('PUT', sdkPath, { key: project.clientKey, body: { platform: 'web', pushToken: 't' } });
    }
    const response = await first.request('GET', devicePath(project.projectId), { key: project.apiKey });
    expect(response.headers.get('ratelimit-remaining')).toBe('99');
  });
});
