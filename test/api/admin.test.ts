import { describe, expect, it } from 'vitest';
import { startIngress, useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { eventually } from '../support/eventually.ts';
import { startTestWorkers } from '../support/workers.ts';
import { queueNames } from '../../src/infra/queue-names.ts';

const adminToken = 'a-long-random-admin-token';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const { ingress } = useIngress({ config: testConfig({ adminToken }) });

const get = (path: string, authorization?: string) =>
  ingress.request('GET', path, { headers: authorization === undefined ? {} : { authorization } });

describe('dashboard and metrics access', () => {
  it('lets the admin in with the token as bearer or as the basic-auth password of "admin"', async () => {
    for (const authorization of [`Bearer ${adminToken}`, basic('admin', adminToken)]) {
      const queues = await get('/admin/queues/api/queues', authorization);
      expect(queues.status).toBe(200);
      expect(queues.body.queues.map((queue: { name: string }) => queue.name).sort()).toEqual(
        Object.values(queueNames).sort(),
      );
      const page = await fetch(`${ingress.baseUrl}/admin/queues`, { headers: { authorization } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const metrics = await fetch(`${ingress.baseUrl}/metrics`, { headers: { authorization } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('# TYPE push_deliveries_total counter');
    }
  });

  it('answers 401 in the API error format to anything else, and asks the browser for a password', async () => {
    const attempts = [
      undefined,
      `Bearer ${adminToken}x`,
      `Bearer ${adminToken.slice(0, -1)}`,
      basic('root', adminToken),
      basic('admin', 'guess'),
      `Token ${adminToken}`,
      'Basic !!!',
    ];
    for (const authorization of attempts) {
      for (const path of ['/admin/queues', '/admin/queues/api/queues', '/metrics']) {
        const response = await get(path, authorization);
        expect(response.status, `${path} with ${authorization}`).toBe(401);
        expect(response.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      }
    }
  });

  it('does not exist when no ADMIN_TOKEN is configured', async () => {
    const closed = await startIngress(testConfig());
    try {
      for (const path of ['/admin/queues', '/admin/queues/api/queues', '/metrics']) {
        const response = await closed.request('GET', path, { key: adminToken });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
    } finally {
      await closed.close();
    }
  });
});

describe('failed jobs on the dashboard', () => {
  it('keep their data, error and stack, under a name that says what they are', async () => {
    const job = await ingress.context.queues.maintenance.add('rebuild-everything', { requestedBy: 'ops' });
    const workers = await startTestWorkers(ingress.context.config, ['maintenance']);
    try {
      await eventually(async () => expect(await job.getState()).toBe('failed'));
    } finally {
      await workers.close();
    }
    const shown = await get(`/admin/queues/api/queues/maintenance/${job.id}`, `Bearer ${adminToken}`);
    expect(shown.status).toBe(200);
    expect(shown.body.job).toMatchObject({
      name: 'rebuild-everything',
      data: { requestedBy: 'ops' },
      failedReason: 'unknown maintenance job "rebuild-everything"',
      stacktrace: [expect.stringContaining('maintenance-processor')],
    });
    expect(shown.body.status).toBe('failed');
  });
});
