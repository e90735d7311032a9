import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const sdk = (deviceId: string) => `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`;
const register = (deviceId: string, body: unknown) =>
  ingress.request('PUT', sdk(deviceId), { key: project.clientKey, body });
const update = (deviceId: string, body: unknown) =>
  ingress.request('PATCH', sdk(deviceId), { key: project.clientKey, body });
const read = (deviceId: string) =>
  ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, { key: project.apiKey });

describe('a device language and time zone (CONTRACTS §3)', () => {
  it('keeps them from registration and PATCH and shows them in the server view only, the language as Intl writes it', async () => {
    const registered = await register('seoul-1', {
      platform: 'android',
      pushToken: 'fcm-seoul-1',
      language: 'pt-br',
      timezone: 'Asia/Seoul',
    });
    expect(registered.status).toBe(200);
    // The SDK answers the spec's four fields (CONTRACTS §3).
    expect(Object.keys(registered.body.data).sort()).toEqual(['id', 'isSubscribed', 'tags', 'userId']);
    expect((await read('seoul-1')).body.data).toMatchObject({ language: 'pt-BR', timezone: 'Asia/Seoul' });

    // A traveller: the zone changes, the language stays; null clears one.
    expect((await update('seoul-1', { timezone: 'Europe/Berlin' })).status).toBe(200);
    expect((await read('seoul-1')).body.data).toMatchObject({ language: 'pt-BR', timezone: 'Europe/Berlin' });
    expect((await update('seoul-1', { language: null })).status).toBe(200);
    const cleared = (await read('seoul-1')).body.data;
    expect(cleared.language).toBeUndefined();
    expect(cleared.timezone).toBe('Europe/Berlin');
  });

  it('takes a browser zone alias and leaves both out of the view of a device that never set them', async () => {
    expect((await register('calcutta', { platform: 'web', timezone: 'Asia/Calcutta' })).status).toBe(200);
    expect((await read('calcutta')).body.data.timezone).toBe('Asia/Calcutta');
    await register('plain', { platform: 'web' });
    expect(Object.keys((await read('plain')).body.data).sort()).toEqual(['id', 'isSubscribed', 'tags', 'userId']);
  });

  it.each([
    ['language', 'en_US!'],
    ['language', 'x'],
    ['language', 'en-'],
    ['timezone', 'Mars/Base'],
    ['timezone', '+09:00'],
    ['timezone', ''],
  ])('refuses %s %j with a 400 naming it, and stores nothing', async (field, value) => {
    const answer = await register(`bad-${field}`, { platform: 'web', [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: `/${field}`, message: expect.any(String) }]);
    expect((await read(`bad-${field}`)).status).toBe(404);
    await register('kept-locale', { platform: 'web', language: 'ko', timezone: 'Asia/Seoul' });
    expect((await update('kept-locale', { [field]: value })).status).toBe(400);
    expect((await read('kept-locale')).body.data).toMatchObject({ language: 'ko', timezone: 'Asia/Seoul' });
  });
});
