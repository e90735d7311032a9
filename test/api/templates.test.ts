import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ projects: { project: 'team', other: 'team' } });

const templatesPath = (owner = project) => `/v1/projects/${owner.projectId}/templates`;
const welcome = {
  name: 'welcome',
  title: 'Hi {{ device.tags.name | default: "there" }}',
  body: 'Your code is {{ data.code }}',
  url: 'https://shop.example/{{ data.code }}',
};

describe('templates (CONTRACTS §7)', () => {
  it('creates, reads, lists, replaces and deletes a template', async () => {
    const created = await ingress.request('POST', templatesPath(), { key: project.apiKey, body: welcome });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ ...welcome, imageUrl: null });

    const read = await ingress.request('GET', `${templatesPath()}/${id}`, { key: project.apiKey });
    expect(read.body.data).toEqual(created.body.data);

    const second = await ingress.request('POST', templatesPath(), {
      key: project.apiKey,
      body: { name: 'second', body: 'b' },
    });
    const listed = await ingress.request('GET', templatesPath(), { key: project.apiKey });
    expect(listed.body.data.map((template: { id: string }) => template.id)).toEqual([second.body.data.id, id]);

    const replaced = await ingress.request('PUT', `${templatesPath()}/${id}`, {
      key: project.apiKey,
      body: { name: 'welcome 2', body: 'New {{ data.code }}' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id,
      name: 'welcome 2',
      title: null,
      body: 'New {{ data.code }}',
      url: null,
    });

    expect((await ingress.request('DELETE', `${templatesPath()}/${id}`, { key: project.apiKey })).status).toBe(200);
    expect((await ingress.request('GET', `${templatesPath()}/${id}`, { key: project.apiKey })).status).toBe(404);
    expect((await ingress.request('DELETE', `${templatesPath()}/${id}`, { key: project.apiKey })).status).toBe(404);
  });

  it('pages newest first with before, the id or the createdAt of the last template seen, through templates created in the same millisecond', async () => {
    const owner = await ingress.createProject('team');
    // Five created in one millisecond between two others: a page boundary falls among them either way.
    const at = Date.now() - 60_000;
    const createdAt = [at + 1, at, at, at, at, at, at - 1];
    await ingress.context.models.Template.insertMany(
      createdAt.map((time, index) => ({
        _id: `same-ms-${index}`,
        projectId: owner.projectId,
        name: `t${index}`,
        title: null,
        body: 'b',
        url: null,
        imageUrl: null,
        createdAt: new Date(time),
        updatedAt: new Date(time),
      })),
    );
    const all = (await ingress.request('GET', templatesPath(owner), { key: owner.apiKey })).body.data.map(
      (template: { id: string }) => template.id,
    );
    expect(all).toEqual(['same-ms-0', 'same-ms-5', 'same-ms-4', 'same-ms-3', 'same-ms-2', 'same-ms-1', 'same-ms-6']);
    for (const boundary of ['id', 'createdAt'] as const) {
      const paged: string[] = [];
      for (let before = ''; ; ) {
        const page = await ingress.request('GET', `${templatesPath(owner)}?limit=2${before}`, { key: owner.apiKey });
        expect(page.status).toBe(200);
        paged.push(...page.body.data.map((template: { id: string }) => template.id));
        if (page.body.data.length < 2) break;
        before = `&before=${encodeURIComponent(page.body.data.at(-1)[boundary])}`;
      }
      expect(paged, boundary).toEqual(all);
    }
    const unknown = await ingress.request('GET', `${templatesPath(owner)}?before=no-such-template`, {
      key: owner.apiKey,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { path: '/query/before', message: expect.stringContaining('template') },
    ]);
  });

  it('deletes with an empty body labelled JSON, as many clients send every request; a route taking a body still needs one', async () => {
    const created = await ingress.request('POST', templatesPath(), { key: project.apiKey, body: welcome });
    const json = { 'content-type': 'application/json' };
    const removed = await ingress.request('DELETE', `${templatesPath()}/${created.body.data.id}`, {
      key: project.apiKey,
      rawBody: '',
      headers: json,
    });
    expect(removed.status).toBe(200);
    const empty = await ingress.request('POST', templatesPath(), { key: project.apiKey, rawBody: '', headers: json });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('The body is empty; send a JSON object.');
  });

  it('refuses a template that does not parse as Liquid with 400 naming the field', async () => {
    const response = await ingress.request('POST', templatesPath(), {
      key: project.apiKey,
      body: { name: 'broken', title: 'ok', body: 'Hello {% if %}' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.details).toEqual([{ path: '/body', message: expect.stringContaining('Liquid') }]);
  });

  it('refuses content that cannot fit any push before rendering, as a send with it would be', async () => {
    const tooLarge = { name: 'too large', title: 'Hi', body: '€'.repeat(1500) };
    const response = await ingress.request('POST', templatesPath(), { key: project.apiKey, body: tooLarge });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      {
        path: '/title',
        message:
          'it takes 2 bytes before rendering; with the other fields and the notification id every push carries (4552 bytes) no push service takes more than 4096',
      },
      {
        path: '/body',
        message:
          'it takes 4500 bytes before rendering; with the other fields and the notification id every push carries (4552 bytes) no push service takes more than 4096',
      },
    ]);
    const send = await ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      body: { targetType: 'userId', targetIds: ['nobody'], title: tooLarge.title, body: tooLarge.body },
    });
    expect(send.body.error.details).toEqual(response.body.error.details);
  });

  it('counts neither an inline comment nor the whitespace a "-" strips as text every push carries', async () => {
    for (const body of [
      `{% # ${'c'.repeat(4060)} %}Hello`,
      `${' '.repeat(4070)}{{- "Hello" }}`,
      // A break outside a loop ends the render: what follows it may never be written.
      `Hello{% if data.stop %}{% break %}{% endif %}${'€'.repeat(1400)}`,
    ]) {
      const response = await ingress.request('POST', templatesPath(), {
        key: project.apiKey,
        body: { name: 'n', body },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  it('counts the text after the words break or continue written in a string, a comment or a raw block', async () => {
    for (const before of [
      '{% assign m = "take a break" %}',
      '{% # continue %}',
      '{% raw %}{% break %}{% endraw %}',
      '{% if data.continue %}x{% endif %}',
    ]) {
      const response = await ingress.request('POST', templatesPath(), {
        key: project.apiKey,
        body: { name: 'n', body: `${before}${'€'.repeat(1400)}` },
      });
      expect(response.status, before).toBe(400);
      expect(response.body.error.details).toEqual([{ path: '/body', message: expect.stringContaining('4200 bytes') }]);
    }
  });

  it('refuses a send, a journey or a preview naming a template stored before a Liquid rule of today, which would fail every device', async () => {
    // Stored while messages could still use the *_exp filters (src/rendering/liquid.ts).
    const stale = {
      _id: 'stale-exp',
      projectId: project.projectId,
      name: 'stale',
      body: '{{ a | where_exp: "i", "i" }}',
    };
    await ingress.context.models.Template.create(stale);
    const base = `/v1/projects/${project.projectId}`;
    const send = await ingress.request('POST', `${base}/notifications`, {
      key: project.apiKey,
      body: { targetType: 'userId', targetIds: ['someone'], templateId: stale._id },
    });
    expect(send.status).toBe(400);
    expect(send.body.error.details).toEqual([
      {
        path: '/templateId',
        message: expect.stringMatching(/^its body is not a valid Liquid template: undefined filter: where_exp/),
      },
    ]);
    const journey = await ingress.request('POST', `${base}/journeys`, {
      key: project.apiKey,
      body: { name: 'stale', trigger: { event: 'signup' }, delaySeconds: 0, templateId: stale._id },
    });
    expect(journey.status).toBe(400);
    expect(journey.body.error.details).toEqual(send.body.error.details);
    const preview = await ingress.request('POST', `${base}/notifications/preview`, {
      key: project.apiKey,
      body: { templateId: stale._id },
    });
    expect(preview.status).toBe(400);
    expect(preview.body.error.details).toEqual(send.body.error.details);
  });

  it('refuses an unknown filter, which would otherwise fail at every send', async () => {
    const response = await ingress.request('POST', templatesPath(), {
      key: project.apiKey,
      body: { name: 'typo', body: '{{ data.x | upcasee }}' },
    });
    expect(response.status).toBe(400);
  });

  it('refuses a replacement that does not parse and keeps the old content', async () => {
    const created = await ingress.request('POST', templatesPath(), { key: project.apiKey, body: welcome });
    const id = created.body.data.id;
    const response = await ingress.request('PUT', `${templatesPath()}/${id}`, {
      key: project.apiKey,
      body: { name: 'x', body: '{{ ' },
    });
    expect(response.status).toBe(400);
    expect((await ingress.request('GET', `${templatesPath()}/${id}`, { key: project.apiKey })).body.data.body).toBe(
      welcome.body,
    );
  });

  it("does not show one project's templates to another", async () => {
    const created = await ingress.request('POST', templatesPath(), { key: project.apiKey, body: welcome });
    const response = await ingress.request('GET', `${templatesPath(other)}/${created.body.data.id}`, {
      key: other.apiKey,
    });
    expect(response.status).toBe(404);
    expect((await ingress.request('GET', templatesPath(other), { key: other.apiKey })).body.data).toEqual([]);
  });
});
