import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { useIngress } from '../support/ingress.ts';
import { importDevices, ndjson } from '../support/device-imports.ts';

const { ingress } = useIngress({ workers: ['device-import'] });

async function exportOf(owner: CreatedProject, query: string) {
  const response = await fetch(`${ingress.baseUrl}/v1/projects/${owner.projectId}/devices/export?${query}`, {
    headers: { authorization: `Bearer ${owner.apiKey}` },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

const tricky = 'Seoul, "Gangnam"\nline two';
const devices = [
  {
    id: 'a',
    platform: 'android',
    pushToken: 'tok-a',
    userId: 'user, "one"',
    tags: { city: tricky, level: 3, code: 'x' },
  },
  { id: 'b', platform: 'ios', pushToken: 'tok-b', language: 'ko', timezone: 'Asia/Seoul', tags: { level: 12.5 } },
  { id: 'c', platform: 'web', pushToken: 'tok-c', isSubscribed: false },
  {
    id: 'd',
    platform: 'web',
    webPush: {
      endpoint: 'https://push.example.com/send/abc',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    },
  },
];

const sorted = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .sort((x, y) => (x.id < y.id ? -1 : 1));

describe('GET /devices/export and re-import', () => {
  it('exports NDJSON in id order, in the columns the import takes, and imports back into another project the same', async () => {
    const source = await ingress.createProject('team');
    await importDevices(ingress, source, ndjson([...devices].reverse()));
    const exported = await exportOf(source, 'format=ndjson');
    expect(exported.status).toBe(200);
    expect(exported.type).toContain('application/x-ndjson');
    const rows = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(rows[0]).toEqual({
      id: 'a',
      platform: 'android',
      pushToken: 'tok-a',
      userId: 'user, "one"',
      tags: { city: tricky, level: 3, code: 'x' },
      language: null,
      timezone: null,
      isSubscribed: true,
    });
    expect(rows[3].webPush).toEqual(devices[3]!.webPush);

    const target = await ingress.createProject('team');
    const done = await importDevices(ingress, target, exported.text);
    expect(done).toMatchObject({ status: 'completed', created: 4, failed: 0 });
    expect(sorted((await exportOf(target, 'format=ndjson')).text)).toEqual(rows);
  });

  it('exports CSV whose fields with commas, quotes and line breaks round-trip through an import', async () => {
    const source = await ingress.createProject('team');
    await importDevices(ingress, source, ndjson(devices));
    const csv = await exportOf(source, 'format=csv');
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    const [header, ...records] = parse(csv.text) as string[][];
    expect(header).toEqual([
      'id',
      'platform',
      'pushToken',
      'webPush',
      'userId',
      'language',
      'timezone',
      'isSubscribed',
      'tag:city',
      'tag:code',
      'tag:level',
    ]);
    expect(records[0]).toEqual(['a', 'android', 'tok-a', '', 'user, "one"', '', '', 'true', tricky, 'x', '3']);

    const target = await ingress.createProject('team');
    const done = await importDevices(ingress, target, csv.text, 'text/csv');
    expect(done).toMatchObject({ status: 'completed', created: 4, failed: 0 });
    const before = sorted((await exportOf(source, 'format=ndjson')).text);
    expect(sorted((await exportOf(target, 'format=ndjson')).text)).toEqual(before);
  });

  it('exports a segment’s subscribed devices, refuses an unknown segment and format, and shows no other project', async () => {
    const owner = await ingress.createProject('team');
    await importDevices(ingress, owner, ndjson(devices));
    const segment = await ingress.request('POST', `/v1/projects/${owner.projectId}/segments`, {
      key: owner.apiKey,
      body: { name: 'Level', match: 'all', conditions: [{ tag: 'level', op: 'exists' }] },
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(200);
    const inSegment = await exportOf(owner, `format=ndjson&segmentId=${segment.body.data.id}`);
    expect(sorted(inSegment.text).map((row) => row.id)).toEqual(['a', 'b']);
    expect((await exportOf(owner, 'segmentId=nope')).status).toBe(404);
    expect((await exportOf(owner, 'format=xml')).status).toBe(400);
    const other = await ingress.createProject('team');
    expect((await exportOf(other, 'format=ndjson')).text).toBe('');
  });
});

describe('POST /device-imports: CSV', () => {
  it('imports this service’s columns with created and updated counts and bad rows by line', async () => {
    const owner = await ingress.createProject('team');
    const csv = [
      'id,platform,pushToken,userId,language,timezone,isSubscribed,tag:plan,tag:visits',
      'c1,android,tok-1,u1,en,Europe/Paris,true,gold,4',
      'c2,ios,tok-2,,,,,silver,',
      'c3,android,tok-3,,,,maybe,,',
      '"c4",ios,"tok-4",u4,ko,,false,"a, ""quoted""\nplan",',
      'c5,android',
    ].join('\n');
    const done = await importDevices(ingress, owner, csv, 'text/csv; charset=utf-8');
    expect(done).toMatchObject({ status: 'completed', rows: 5, created: 3, updated: 0, failed: 2 });
    expect(done.errors).toEqual([
      { line: 4, message: 'isSubscribed must be true or false' },
      { line: 7, message: 'has 2 cells where the header has 9' },
    ]);
    const c1 = await ingress.request('GET', `/v1/projects/${owner.projectId}/devices/c1`, { key: owner.apiKey });
    expect(c1.body.data).toMatchObject({
      userId: 'u1',
      tags: { plan: 'gold', visits: 4 },
      language: 'en',
      timezone: 'Europe/Paris',
    });
    const c4 = await ingress.request('GET', `/v1/projects/${owner.projectId}/devices/c4`, { key: owner.apiKey });
    expect(c4.body.data).toMatchObject({ isSubscribed: false, tags: { plan: 'a, "quoted"\nplan' } });

    const changed = csv.replace('c2,ios,tok-2,,,,,silver,', 'c2,ios,tok-2,,,,,platinum,');
    const again = await importDevices(ingress, owner, changed, 'text/csv');
    expect(again).toMatchObject({ created: 0, updated: 1, failed: 2 });
  });

  it('imports a OneSignal subscriptions export, column by column', async () => {
    const owner = await ingress.createProject('team');
    const csv = [
      'id,identifier,session_count,language,timezone,game_version,device_os,device_type,device_model,ad_id,tags,last_active,playtime,amount_spent,created_at,invalid_identifier,badge_count,external_user_id,timezone_id,web_auth,web_p256',
      '8a1c0b2e-0000-4000-8000-000000000001,apns-token-1,12,ko,32400,1.2,17.1,0,iPhone15,,"{""tier"":""vip"",""score"":""10""}",1714000000,300,0,1700000000,f,0,user-1,Asia/Seoul,,',
      '8a1c0b2e-0000-4000-8000-000000000002,fcm-token-2,3,en,-18000,1.2,14,1,Pixel,,,1714000000,30,0,1700000000,t,0,,,,',
      '8a1c0b2e-0000-4000-8000-000000000003,https://push.example.com/send/xyz,1,fr,3600,,120,5,Linux,,{},1714000000,0,0,1700000000,f,0,user-3,,tBHItJI5svbpez7KI4CCXg,BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      '8a1c0b2e-0000-4000-8000-000000000004,someone@example.com,1,en,0,,,11,,,{},1714000000,0,0,1700000000,f,0,,,,',
    ].join('\n');
    const done = await importDevices(ingress, owner, csv, 'text/csv');
    expect(done).toMatchObject({ status: 'completed', rows: 4, created: 3, failed: 1 });
    expect(done.errors).toEqual([
      { line: 5, message: 'device_type 11 is not an iOS, Android or web push subscription' },
    ]);
    const exported = sorted((await exportOf(owner, 'format=ndjson')).text);
    expect(exported).toEqual([
      {
        id: '8a1c0b2e-0000-4000-8000-000000000001',
        platform: 'ios',
        pushToken: 'apns-token-1',
        userId: 'user-1',
        tags: { tier: 'vip', score: '10' },
        language: 'ko',
        timezone: 'Asia/Seoul',
        isSubscribed: true,
      },
      {
        id: '8a1c0b2e-0000-4000-8000-000000000002',
        platform: 'android',
        pushToken: 'fcm-token-2',
        userId: null,
        tags: {},
        language: 'en',
        timezone: 'Etc/GMT+5',
        isSubscribed: false,
      },
      {
        id: '8a1c0b2e-0000-4000-8000-000000000003',
        platform: 'web',
        webPush: {
          endpoint: 'https://push.example.com/send/xyz',
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
        userId: 'user-3',
        tags: {},
        language: 'fr',
        timezone: 'Etc/GMT-1',
        isSubscribed: true,
      },
    ]);
  });

  it('fails an import whose header is neither format, saying so', async () => {
    const owner = await ingress.createProject('team');
    const done = await importDevices(ingress, owner, 'name,email\nx,y\n', 'text/csv');
    expect(done.status).toBe('failed');
    expect(done.reason).toContain('header row');
  });
});
