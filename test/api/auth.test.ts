import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { rotateKeys } from '../../src/projects/rotate-keys.ts';
import { hashApiKey } from '../../src/keys/api-keys.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ projects: { project: 'team', other: 'team' } });

beforeAll(async () => {
  const registered = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/d1`, {
    key: project.clientKey,
    body: { platform: 'ios', pushToken: 'token-1' },
  });
  expect(registered.status).toBe(200);
});

const devicePath = () => `/v1/projects/${project.projectId}/devices/d1`;

function expectError(response: { status: number; body: any }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(response.body.error.message.length).toBeGreaterThan(10);
}

describe('server API authentication', () => {
  it('accepts the project server key', async () => {
    const response = await ingress.request('GET', devicePath(), { key: project.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe('d1');
  });

  it('refuses a request without Authorization with 401', async () => {
    expectError(await ingress.request('GET', devicePath()), 401, 'unauthorized');
  });

  it.each([['Basic abc'], ['Bearer'], ['Bearer two words'], [project?.apiKey ?? 'sk_x']])(
    'refuses the malformed header %j with 401',
    async (header) => {
      expectError(
        await ingress.request('GET', devicePath(), { headers: { authorization: header } }),
        401,
        'unauthorized',
      );
    },
  );

  it('refuses an unknown key with 401', async () => {
    expectError(await ingress.request('GET', devicePath(), { key: 'sk_unknown' }), 401, 'unauthorized');
  });

  it("refuses another project's key with 403", async () => {
    expectError(await ingress.request('GET', devicePath(), { key: other.apiKey }), 403, 'forbidden');
  });

  it('refuses the client key on a server route with 403', async () => {
    expectError(await ingress.request('GET', devicePath(), { key: project.clientKey }), 403, 'forbidden');
  });

  it('refuses the server key on an SDK route with 403, so it is never embedded in an app', async () => {
    const response = await ingress.request('PATCH', `/v1/sdk/projects/${project.projectId}/devices/d1`, {
      key: project.apiKey,
      body: {},
    });
    expectError(response, 403, 'forbidden');
  });

  it('checks the key before the body, so an unauthenticated caller learns nothing from validation', async () => {
    const response = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/d1`, {
      body: { platform: 'nope' },
    });
    expectError(response, 401, 'unauthorized');
  });

  it('revokes rotated keys at once, even after they were cached', async () => {
    const rotating = await ingress.createProject('team');
    const path = `/v1/projects/${rotating.projectId}/devices/none`;
    expect((await ingress.request('GET', path, { key: rotating.apiKey })).status).toBe(404);
    const rotated = await rotateKeys(ingress.context.models, ingress.context.keyCache, rotating.projectId);
    expectError(await ingress.request('GET', path, { key: rotating.apiKey }), 401, 'unauthorized');
    const sdkPath = `/v1/sdk/projects/${rotating.projectId}/devices/x`;
    expectError(await ingress.request('PATCH', sdkPath, { key: rotating.clientKey, body: {} }), 401, 'unauthorized');
    expect((await ingress.request('GET', path, { key: rotated.apiKey })).status).toBe(404);
  });

  it('keeps rotated keys revoked when a lookup that read the project before the rotation caches its answer after it', async () => {
    const rotating = await ingress.createProject('team');
    const path = `/v1/projects/${rotating.projectId}/devices/none`;
    const { keyCache } = ingress.context;
    // What such a lookup found, before the rotation: the key and its project.
    const oldHash = hashApiKey(rotating.apiKey);
    const readBefore = await keyCache.lookup(oldHash);
    expect(readBefore).toMatchObject({ projectId: rotating.projectId, kind: 'server' });
    await rotateKeys(ingress.context.models, keyCache, rotating.projectId);
    await keyCache.remember(oldHash, readBefore);
    expectError(await ingress.request('GET', path, { key: rotating.apiKey }), 401, 'unauthorized');
  });

  it('leaves only the last of two rotations at once working, even for a key of the first used in between', async () => {
    const rotating = await ingress.createProject('team');
    const path = `/v1/projects/${rotating.projectId}/devices/none`;
    const { models, keyCache } = ingress.context;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Rotation B (a double click in the console) starts first and writes only once A has finished and A's key is in use.
    const held = <T>(write: () => T) => ({
      lean: async () => {
        await released;
        return (write() as { lean(): unknown }).lean();
      },
      // biome-ignore lint/suspicious/noThenProperty: stands for a mongoose query, which is awaited as a thenable
      then: (resolve: (value: unknown) => void, reject: (error: unknown) => void) =>
        released.then(() => write() as PromiseLike<unknown>).then(resolve, reject),
    });
    const Project = new Proxy(models.Project, {
      get(target, property, receiver) {
        if (property !== 'updateOne' && property !== 'findOneAndUpdate') return Reflect.get(target, property, receiver);
        return (...args: unknown[]) => held(() => (target[property] as (...a: unknown[]) => unknown)(...args));
      },
    });
    const rotationB = rotateKeys({ ...models, Project }, keyCache, rotating.projectId);
    const a = await rotateKeys(models, keyCache, rotating.projectId);
    expect((await ingress.request('GET', path, { key: a.apiKey })).status).toBe(404);
    release();
    const b = await rotationB;
    expect((await ingress.request('GET', path, { key: b.apiKey })).status).toBe(404);
    expectError(await ingress.request('GET', path, { key: a.apiKey }), 401, 'unauthorized');
    expectError(await ingress.request('GET', path, { key: rotating.apiKey }), 401, 'unauthorized');
  });

  it('stores no plaintext key anywhere in MongoDB', async () => {
    const collections = await ingress.context.mongo.db!.listCollections().toArray();
    const dump: string[] = [];
    for (const { name } of collections)
      dump.push(JSON.stringify(await ingress.context.mongo.db!.collection(name).find().toArray()));
    const everything = dump.join('\n');
    for (const secret of [project.apiKey, project.clientKey, other.apiKey, other.clientKey]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(secret.slice(3));
    }
    expect(everything).toContain(project.projectId);
  });
});
