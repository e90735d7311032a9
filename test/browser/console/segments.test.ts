import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerDevices } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, project, lists, openConsole, signIn } = useConsole();

describe("the console's Segments screen", { timeout: 120_000 }, () => {
  it("suggests the tag keys of the project's devices, and the values seen for the key typed", async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'gold-1', platform: 'android', token: 'console-gold-1', tags: { tier: 'gold', city: 'Lyon' } },
      { id: 'gold-2', platform: 'ios', token: 'console-gold-2', tags: { tier: 'gold' } },
      { id: 'silver', platform: 'web', token: 'console-silver', tags: { tier: 'silver' } },
    ]);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'segments');
      const options = (list: string | null) =>
        page
          .locator(`datalist[id="${list}"] option`)
          .evaluateAll((found) => found.map((option) => (option as unknown as { value: string }).value));
      const tag = page.getByLabel('Tag', { exact: true });
      await until(async () => options(await tag.getAttribute('list'))).toEqual(['tier', 'city']);
      await tag.fill('tier');
      const value = page.getByLabel('Value', { exact: true });
      await until(async () => options(await value.getAttribute('list'))).toEqual(['gold', 'silver']);
      await tag.fill('city');
      await until(async () => options(await value.getAttribute('list'))).toEqual(['Lyon']);
    } finally {
      await close();
    }
  });

  it("suggests the project's event types and tag keys wherever one is typed: segments, a journey's entry and branch, an in-app trigger", async () => {
    // The project's events (useConsole): purchases, a view, and each device's first session.
    const seen = ['@first_session', 'purchase', 'view'];
    const suggested = async (page: Page, label: string) => {
      const field = page.getByLabel(label, { exact: true });
      const list = await field.getAttribute('list');
      return page
        .locator(`datalist[id="${list}"] option`)
        .evaluateAll((found) => found.map((option) => (option as unknown as { value: string }).value).sort());
    };
    // Each screen with edits asks before it is left (the test dismisses the question): one page a screen.
    const onScreen = async (hash: string, read: (page: Page) => Promise<void>) => {
      const { page, close } = await openConsole();
      try {
        await signIn(page, project.apiKey);
        await page.goto(`${harness.ingress.baseUrl}/console${hash}`);
        await read(page);
      } finally {
        await close();
      }
    };
    await onScreen('#/in-app-messages', async (page) => {
      await until(() => suggested(page, 'Event type')).toEqual(seen);
    });
    await onScreen('#/segments', async (page) => {
      await page.getByLabel('Kind').selectOption('event');
      await until(() => suggested(page, 'Event type')).toEqual(seen);
    });
    await onScreen('#/journeys/new', async (page) => {
      await until(() => suggested(page, 'Enters on the event')).toEqual(seen);
      // A branch's condition offers the tag keys of the project's devices, and the values seen for the key typed.
      await page.getByLabel('New step').selectOption('branch');
      await page.getByRole('button', { name: 'Add the step' }).click();
      await page.getByRole('button', { name: 'Add a condition' }).click();
      await until(() => suggested(page, 'Tag')).toEqual(['bio', 'group', 'name']);
      await page.getByLabel('Tag', { exact: true }).fill('group');
      await until(() => suggested(page, 'Value')).toEqual(['regular', 'vip']);
    });
  });

  it('refuses an event condition whose count is left blank, which was saved as "at least 0 times": every device', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'never-bought', platform: 'android', token: 'console-nb' }]);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'segments');
      await page.getByLabel('Name').fill('Bought three times');
      await page.getByLabel('Kind').selectOption('event');
      await page.getByLabel('Event type').fill('purchase');
      await page.getByLabel('Times').fill('3');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Times').fill('');
      // The live count says why it cannot count, where it counted every device, on the condition.
      await until(() => page.getByRole('alert').textContent()).toBe(
        'Some conditions need a change: see the marked fields.',
      );
      expect(
        await page.getByRole('group', { name: 'Condition 1' }).getByText('The number of times must be').count(),
      ).toBe(1);
      expect(await page.getByTestId('segment-count').count()).toBe(0);
      await page.getByRole('button', { name: 'Save segment' }).click();
      expect(
        await page
          .getByLabel('Times')
          .evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing),
      ).toBe(true);
      const saved = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/segments`, {
        key: owner.apiKey,
      });
      expect(saved.body.data).toEqual([]);
    } finally {
      await close();
    }
  });

  it('opens and saves a segment whose list values hold commas, numeric-looking text and null as they were saved', async () => {
    await registerDevices(harness.ingress, lists, [
      {
        id: 'capital',
        platform: 'android',
        token: 'console-capital',
        tags: { city: 'Washington, D.C.', zip: '02134' },
      },
      { id: 'boston', platform: 'android', token: 'console-boston', tags: { city: 'Boston', zip: 2134 } },
    ]);
    const conditions = [
      { tag: 'city', op: 'in', value: ['Washington, D.C.', ' Springfield '] },
      { tag: 'zip', op: 'in', value: ['02134', 2134] },
      { tag: 'note', op: 'ne', value: 'null' },
      {
        event: 'purchase',
        withinDays: 7,
        count: { op: 'lt', value: 1 },
        where: [{ field: 'coupon', op: 'eq', value: null }],
      },
    ];
    const segmentsPath = `/v1/projects/${lists.projectId}/segments`;
    const created = await harness.ingress.request('POST', segmentsPath, {
      key: lists.apiKey,
      body: { name: 'Capital', match: 'all', conditions },
    });
    expect(created.status).toBe(200);
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, lists.apiKey);
      await show(page, 'segments');
      await page.getByRole('button', { name: 'Capital' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('Capital');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('1 subscribed device');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const saved = await harness.ingress.request('GET', `${segmentsPath}/${created.body.data.id}`, {
        key: lists.apiKey,
      });
      expect(saved.body.data.conditions).toEqual(conditions);
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });
});
