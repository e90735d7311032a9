import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { importDevices, ndjson, readImport, uploadImport } from '../support/device-imports.ts';
import { eventually } from '../support/eventually.ts';

const {
  harness,
  projects: { project, other },
} = useDeliveryHarness({
  queues: ['send', 'deliver', 'device-import', 'event-ingest'],
  projects: { project: 'team', other: 'team' },
});

const getDevice = (owner: CreatedProject, deviceId: string) =>
  harness.ingress.request('GET', `/v1/projects/${owner.projectId}/devices/${deviceId}`, { key: owner.apiKey });

async function freshProject() {
  return harness.ingress.createProject('team');
}

describe('POST /device-imports: NDJSON', () => {
  it('creates and updates devices, reports bad rows by line and applies the others; a second import changes nothing', async () => {
    const owner = await freshProject();
    const registered = await harness.ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/known`, {
      key: owner.clientKey,
      body: { platform: 'ios', pushToken: 'old-token', tags: { keep: 'yes' } },
    });
    expect(registered.status).toBe(200);
    const body = ndjson([
      { id: 'a1', platform: 'android', pushToken: 'tok-a1', userId: 'u1', tags: { plan: 'gold', visits: 3 } },
      { id: 'known', platform: 'ios', pushToken: 'new-token', tags: { level: 7 } },
      { id: 'bad id!', platform: 'android', pushToken: 'tok' },
      { id: 'a2', platform: 'android', pushToken: 'tok-a2', language: 'pt-br', timezone: 'Asia/Seoul' },
      { id: 'a3', platform: 'android' },
      { id: 'a4', platform: 'ios', pushToken: 'tok-a4', timezone: 'Mars/Base' },
      { id: 'a5', platform: 'web', pushToken: 'tok-a5', isSubscribed: false },
    ]).replace('{"id":"a3"', 'not json\n{"id":"a3"');
    const done = await importDevices(harness.ingress, owner, body);
    expect(done).toMatchObject({ status: 'completed', rows: 8, created: 3, updated: 1, failed: 4 });
    expect(done.errors.map((error) => error.line)).toEqual([3, 5, 6, 7]);
    expect(done.errors[0]!.message).toContain('id must be 1 to 128 characters');
    expect(done.errors[1]!.message).toBe('is not valid JSON');
    expect(done.errors[2]!.message).toContain('pushToken is required');
    expect(done.errors[3]!.message).toContain('timezone');

    expect((await getDevice(owner, 'a1')).body.data).toEqual({
      id: 'a1',
      userId: 'u1',
      tags: { plan: 'gold', visits: 3 },
      isSubscribed: true,
    });
    expect((await getDevice(owner, 'known')).body.data.tags).toEqual({ keep: 'yes', level: 7 });
    expect((await getDevice(owner, 'a2')).body.data).toMatchObject({ language: 'pt-BR', timezone: 'Asia/Seoul' });
    expect((await getDevice(owner, 'a5')).body.data.isSubscribed).toBe(false);
    expect((await getDevice(owner, 'a3')).status).toBe(404);

    const again = await importDevices(harness.ingress, owner, body);
    expect(again).toMatchObject({ status: 'completed', rows: 8, created: 0, updated: 0, failed: 4 });

    // The overview counts the registered device and the 2 imported subscribed ones, once, whatever the re-import.
    const overview = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/overview`, {
      key: owner.apiKey,
    });
    expect(overview.body.data.days.at(-1).subscribed).toBe(3);
  });

  it('records no @first_session for imported devices, and an imported device receives a send', async () => {
    const owner = await freshProject();
    await importDevices(
      harness.ingress,
      owner,
      ndjson([{ id: 'imported', platform: 'android', pushToken: 'tok-imported' }]),
    );
    const sdk = await harness.ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/sdk-made`, {
      key: owner.clientKey,
      body: { platform: 'android', pushToken: 'tok-sdk' },
    });
    expect(sdk.status).toBe(200);
    const events = async (deviceId: string) =>
      (
        await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/events?deviceId=${deviceId}`, {
          key: owner.apiKey,
        })
      ).body.data as Array<{ type: string }>;
    // The SDK's device's event lands through the same queue: once it is there, the imported one's would be too.
    await eventually(async () =>
      expect((await events('sdk-made')).map((event) => event.type)).toEqual(['@first_session']),
    );
    expect(await events('imported')).toEqual([]);

    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['imported'],
      title: 'Hello',
      body: 'Moved in',
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    expect((await readNotification(harness.ingress, owner, id)).stats.sent).toBe(1);
    expect(harness.sandbox.deliveries('tok-imported')).toHaveLength(1);
  });

  it('takes an upload larger than 1 MiB', async () => {
    const owner = await freshProject();
    const rows = Array.from({ length: 6000 }, (_, index) => ({
      id: `big-${index}`,
      platform: 'android',
      pushToken: `tok-big-${index}`,
      tags: { note: 'x'.repeat(150) },
    }));
    const body = ndjson(rows);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024);
    const done = await importDevices(harness.ingress, owner, body, 'application/x-ndjson', 60_000);
    expect(done).toMatchObject({ status: 'completed', rows: 6000, created: 6000, failed: 0 });
  });

  it('refuses an empty body and another content type, and hides the import from another project', async () => {
    const empty = await uploadImport(harness.ingress, project, '', 'application/x-ndjson');
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('invalid_request');
    const blank = await uploadImport(harness.ingress, project, '\n \n', 'text/csv');
    expect(blank.status).toBe(400);
    const xml = await uploadImport(harness.ingress, project, '<devices/>', 'application/xml');
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe('unsupported_media_type');
    const json = await uploadImport(harness.ingress, project, '{"id":"x"}', 'application/json');
    expect(json.status).toBe(415);

    const uploaded = await uploadImport(
      harness.ingress,
      project,
      ndjson([{ id: 'mine', platform: 'ios', pushToken: 't' }]),
      'application/x-ndjson',
    );
    expect(uploaded.status).toBe(202);
    const mine = await readImport(harness.ingress, project, uploaded.body.data.id);
    expect(mine.status).toBe(200);
    const theirs = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/device-imports/${uploaded.body.data.id}`,
      {
        key: other.apiKey,
      },
    );
    expect(theirs.status).toBe(403);
    const asOther = await readImport(harness.ingress, other, uploaded.body.data.id);
    expect(asOther.status).toBe(404);
  });
});

describe('POST /device-imports: bounds', () => {
  it('refuses a body declared past 256 MiB with 413 before reading it, and keeps nothing', async () => {
    const owner = await freshProject();
    const answer = await declaredUpload(owner, 256 * 1024 * 1024 + 1);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/256 MiB/) });
    const listed = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/device-imports`, {
      key: owner.apiKey,
    });
    expect(listed.body.data).toEqual([]);
  });

  it('stops a gzipped body at the first line past 1,000,000 rows with 413, and keeps nothing', async () => {
    const owner = await freshProject();
    const inflated = Buffer.from(`${'{"id":"a","platform":"ios","pushToken":"t"}\n'.repeat(1_000_002)}`);
    const answer = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/device-imports`, {
      key: owner.apiKey,
      rawBody: gzipSync(inflated),
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.message).toMatch(/1,000,000 rows/);
    const files = await harness.ingress.context.mongo.db!.collection('device_import_files.files').countDocuments({
      'metadata.projectId': owner.projectId,
    });
    expect(files).toBe(0);
  });
});

/** A POST whose Content-Length claims `length` bytes, of which only the first row is ever sent. */
function declaredUpload(owner: CreatedProject, length: number): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(harness.ingress.baseUrl);
  return new Promise((resolve, reject) => {
    const upload = httpRequest(
      {
        hostname,
        port,
        method: 'POST',
        path: `/v1/projects/${owner.projectId}/device-imports`,
        headers: {
          authorization: `Bearer ${owner.apiKey}`,
          'content-type': 'application/x-ndjson',
          'content-length': String(length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          upload.destroy();
          resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
        });
      },
    );
    upload.on('error', reject);
    upload.write('{"id":"first","platform":"ios","pushToken":"t"}\n');
  });
}
