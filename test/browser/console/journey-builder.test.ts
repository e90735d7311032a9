import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, show, until, useConsole } from '../../support/console.ts';
import { card, count, countAfterRefresh, problems } from '../../support/journey-builder.ts';

const { harness, project, openConsole, signIn } = useConsole(['journey-steps']);

/** Appends a step of that type; its editor opens, and the one open before closes. */
async function addStep(page: Page, type: string) {
  await page.getByLabel('New step').selectOption(type);
  await page.getByRole('button', { name: 'Add the step' }).click();
}

describe("the console's journey builder", { timeout: 180_000 }, () => {
  let journeyPath = '';

  it('builds a journey with a branch and a wait, shows the API’s errors on their steps, then its counts and travellers', async () => {
    const { page, close } = await openConsole(1280);
    await page.clock.install();
    try {
      await signIn(page);
      await show(page, 'journeys');
      await page.getByRole('link', { name: 'New journey' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Cart rescue');
      await page.getByLabel('State').selectOption('active');
      await page.getByLabel('Enters on the event').fill('added_to_cart');

      await addStep(page, 'branch');
      await page.getByRole('button', { name: 'Add a condition' }).click();
      await page.getByLabel('Tag', { exact: true }).fill('group');
      await page.getByLabel('Value', { exact: true }).fill('vip');
      await addStep(page, 'wait');
      // 400 days: past the longest wait, which the API refuses on this step.
      await page.getByLabel('Wait for', { exact: true }).fill('400');
      await page.getByLabel('Wait for: unit').selectOption('days');
      await addStep(page, 'push');
      await page.getByLabel('Body').fill('Your VIP discount waits');
      await page.getByLabel('Then go to').selectOption('exit');
      await addStep(page, 'push');
      await page.getByLabel('Body').fill('   ');
      await card(page, 'branch-1').getByRole('button', { name: 'Edit step 1' }).click();
      await page.getByLabel('If yes, go to').selectOption('wait-1');
      await page.getByLabel('If no, go to').selectOption('push-2');
      await page.getByRole('button', { name: 'Done with step 1' }).click();

      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent()).toBe(
        'Not saved: 2 steps need a change, marked in red.',
      );
      // Each error on the step it is about, in the builder's words, never as the API's path.
      expect(await card(page, 'wait-1').getByTestId('step-errors').textContent()).toMatch(/^Wait for: must be/);
      expect(await card(page, 'push-2').getByTestId('step-errors').textContent()).toMatch(/^Body: /);
      expect(await card(page, 'branch-1').getByTestId('step-errors').count()).toBe(0);
      expect(await card(page, 'push-1').getByTestId('step-errors').count()).toBe(0);
      expect(await page.getByText('/steps/').count()).toBe(0);
      await page.screenshot({ path: resolve(screenshots, 'journey-builder-errors-1280.png'), fullPage: true });

      await card(page, 'wait-1').getByRole('button', { name: 'Edit step 2' }).click();
      await page.getByLabel('Wait for', { exact: true }).fill('1');
      await page.getByLabel('Wait for: unit').selectOption('hours');
      await card(page, 'push-2').getByRole('button', { name: 'Edit step 4' }).click();
      await page.getByLabel('Body').fill('Come back to your cart');
      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Saved journey' }).textContent()).toBe(
        'Saved journey Cart rescue (version 1).',
      );
      await until(() => new URL(page.url()).hash).toMatch(/^#\/journeys\/[^/]+$/);
      journeyPath = new URL(page.url()).hash;
      const [journey] = (
        await harness.ingress.request('GET', `/v1/projects/${project.projectId}/journeys`, { key: project.apiKey })
      ).body.data;
      expect(journey.steps).toEqual([
        {
          id: 'branch-1',
          type: 'branch',
          match: 'all',
          conditions: [{ tag: 'group', op: 'eq', value: 'vip' }],
          onTrue: 'wait-1',
          onFalse: 'push-2',
        },
        { id: 'wait-1', type: 'wait', seconds: 3600 },
        { id: 'push-1', type: 'push', next: 'exit', body: 'Your VIP discount waits' },
        { id: 'push-2', type: 'push', body: 'Come back to your cart' },
      ]);

      expect(await card(page, 'branch-1').locator('.step-summary').textContent()).toBe('if tag group is vip');
      // The branch's two sides side by side, the wait and its push under "If yes".
      const yes = await card(page, 'wait-1').boundingBox();
      const no = await card(page, 'push-2').boundingBox();
      expect(Math.abs(yes!.y - no!.y)).toBeLessThan(2);
      expect(no!.x).toBeGreaterThan(yes!.x + yes!.width);
      expect((await card(page, 'push-1').boundingBox())!.y).toBeGreaterThan(yes!.y + yes!.height);

      const report = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
        key: project.apiKey,
        body: {
          events: ['vip-1', 'regular'].map((id) => ({ type: 'added_to_cart', subjectType: 'device', subjectId: id })),
        },
      });
      expect(report.body.data.error).toEqual([]);
      await until(countAfterRefresh(page, 'branch-1', 'entered'), { timeout: 30_000 }).toBe('2');
      await until(countAfterRefresh(page, 'wait-1', 'waiting'), { timeout: 30_000 }).toBe('1');
      await until(countAfterRefresh(page, 'push-2', 'sent'), { timeout: 30_000 }).toBe('1');
      expect(await page.getByTestId('journey-counts').locator('[data-count="entered"] dd').textContent()).toBe('2');

      await page.getByLabel('Id', { exact: true }).fill('vip-1');
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => page.getByTestId('traveller-where').textContent()).toMatch(/^Travelling at wait-1 until /);
      expect(await page.getByTestId('traveller-visit').textContent()).toContain('branch-1 the branch said yes');
      await page.getByLabel('Id', { exact: true }).fill('regular');
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => page.getByTestId('traveller-where').textContent()).toMatch(/: it reached the end\.$/);
      expect(await page.getByTestId('traveller-visit').textContent()).toContain('push-2 sent its push');

      expect(await problems(page, 'journey-builder', 1280)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('opens a journey of every step type as saved, and saves the edits of its settings as its next version', async () => {
    const base = `/v1/projects/${project.projectId}`;
    const post = async (path: string, body: object) => {
      const answer = await harness.ingress.request('POST', `${base}${path}`, { key: project.apiKey, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { id: string };
    };
    const segment = await post('/segments', {
      name: 'Big spenders',
      match: 'all',
      conditions: [{ tag: 'group', op: 'eq', value: 'vip' }],
    });
    const steps = [
      {
        id: 'paid',
        type: 'waitForEvent',
        event: 'purchase',
        sameAs: ['orderId'],
        timeoutSeconds: 86_400,
        onEvent: 'thank',
        onTimeout: 'test',
      },
      {
        id: 'test',
        type: 'split',
        paths: [
          { name: 'Gentle', percent: 70, next: 'nudge' },
          { name: 'Firm', percent: 30, next: 'tag' },
        ],
      },
      {
        id: 'nudge',
        type: 'push',
        title: 'Still thinking?',
        body: 'Hi {{ entry_event.data.name }}',
        ttl: 600,
        next: 'exit',
      },
      { id: 'tag', type: 'setTags', tags: { stage: 'reminded', coupon: null } },
      { id: 'thank', type: 'webhook' },
    ];
    const { id } = await post('/journeys', {
      name: 'Order follow-up',
      status: 'draft',
      entry: { event: 'checkout' },
      steps,
    });
    const { page, close } = await openConsole(1280);
    try {
      await signIn(page);
      await page.goto(`${harness.ingress.baseUrl}/console#/journeys/${id}`);
      await until(() => card(page, 'paid').locator('.step-summary').textContent()).toBe(
        'wait up to 1 day for “purchase”',
      );
      // The event's two outcomes side by side: heard, it goes straight on to the webhook step, which the time-out's
      // split reaches too, so it is drawn below both; the split's two paths side by side.
      const side = (label: string) => page.locator('.side').filter({ has: page.getByText(label, { exact: true }) });
      const heard = await side('If purchase happens').boundingBox();
      const timedOut = await side('If not within 1 day').boundingBox();
      expect(Math.abs(heard!.y - timedOut!.y)).toBeLessThan(2);
      expect(await side('If purchase happens').locator('.flow-end').textContent()).toBe('Goes on below');
      expect((await card(page, 'thank').boundingBox())!.y).toBeGreaterThan(timedOut!.y + timedOut!.height);
      const gentle = await card(page, 'nudge').boundingBox();
      const firm = await card(page, 'tag').boundingBox();
      expect(Math.abs(gentle!.y - firm!.y)).toBeLessThan(2);
      expect(firm!.x).toBeGreaterThan(gentle!.x + gentle!.width);
      expect(await card(page, 'tag').locator('.step-summary').textContent()).toBe(
        'set tags stage = reminded, remove coupon',
      );

      expect(await problems(page, 'journey-every-step', 1280)).toEqual([]);

      await page.getByLabel('Only devices in the segment').selectOption(segment.id);
      await page.getByLabel('Enter again', { exact: true }).selectOption('afterSeconds');
      await page.getByLabel('Enter again after', { exact: true }).fill('2');
      await page.getByLabel('Enter again after: unit').selectOption('hours');
      await page.getByRole('button', { name: 'Add an exit rule' }).click();
      await page.getByLabel('Exit rule 1: leaves on the event').fill('order_canceled');
      await page.getByLabel('Exit rule 1: same values as the entry event').fill('orderId');
      await card(page, 'paid').getByRole('button', { name: 'Edit step 1' }).click();
      await page.getByLabel('Step name').fill('paid-in-time');
      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Saved journey' }).textContent()).toBe(
        'Saved journey Order follow-up (version 2).',
      );
      const saved = (await harness.ingress.request('GET', `${base}/journeys/${id}`, { key: project.apiKey })).body.data;
      // What the builder did not touch is saved as it was; the renamed step keeps its place and its targets.
      expect(saved).toMatchObject({
        version: 2,
        audience: { segmentId: segment.id },
        reentry: { afterSeconds: 7200 },
        exit: [{ event: 'order_canceled', sameAs: ['orderId'] }],
        steps: [{ ...steps[0], id: 'paid-in-time' }, ...steps.slice(1)],
      });
    } finally {
      await close();
    }
  });

  it('holds on a phone: the sides stacked, nothing overlapping, axe clean', async () => {
    expect(journeyPath).not.toBe('');
    const { page, close } = await openConsole(390);
    try {
      await signIn(page);
      await page.goto(`${harness.ingress.baseUrl}/console${journeyPath}`);
      await until(() => count(page, 'push-2', 'sent')).toBe('1');
      const yes = await card(page, 'wait-1').boundingBox();
      const no = await card(page, 'push-2').boundingBox();
      expect(no!.y).toBeGreaterThan(yes!.y);
      await card(page, 'push-1').getByRole('button', { name: 'Edit step 3' }).click();
      expect(await problems(page, 'journey-builder', 390)).toEqual([]);
    } finally {
      await close();
    }
  });
});
