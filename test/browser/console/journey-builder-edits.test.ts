import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, until, useConsole } from '../../support/console.ts';
import { card, count, countAfterRefresh, problems } from '../../support/journey-builder.ts';

const { harness, project, openConsole, signIn } = useConsole(['journey-steps']);
const base = () => `/v1/projects/${project.projectId}`;
const group = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** Every step type, a branch on a tag or an event with a data condition, a split, a wait for an event with its time-out. */
const steps = [
  { id: 'welcome', type: 'wait', seconds: 1 },
  { id: 'hello', type: 'push', title: 'Welcome aboard', body: 'Your first order ships free' },
  {
    id: 'paid',
    type: 'waitForEvent',
    event: 'purchase',
    where: [{ field: 'amount', op: 'gte', value: 50 }],
    timeoutSeconds: 172_800,
    onEvent: 'thank',
    onTimeout: 'vip-check',
  },
  {
    id: 'vip-check',
    type: 'branch',
    match: 'any',
    conditions: [
      { tag: 'group', op: 'eq', value: 'vip' },
      {
        event: 'view',
        withinDays: 7,
        count: { op: 'gte', value: 1 },
        where: [{ field: 'page', op: 'eq', value: 'pricing' }],
      },
    ],
    onTrue: 'test',
    onFalse: 'tag',
  },
  {
    id: 'test',
    type: 'split',
    paths: [
      { name: 'Gentle reminder', percent: 50, next: 'nudge' },
      { name: 'Nothing', percent: 50, next: 'exit' },
    ],
  },
  { id: 'nudge', type: 'push', body: 'Still thinking about it?', next: 'exit' },
  { id: 'tag', type: 'setTags', tags: { stage: 'reminded' }, next: 'exit' },
  { id: 'thank', type: 'webhook' },
];

describe("the journey builder's conditions, order and drawing", { timeout: 180_000 }, () => {
  let id = '';

  it('draws every step type with its live counts at 1280 and 390 px', async () => {
    const created = await harness.ingress.request('POST', `${base()}/journeys`, {
      key: project.apiKey,
      body: { name: 'Every step', status: 'active', entry: { event: 'signed_up' }, steps },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = created.body.data.id;
    const report = await harness.ingress.request('POST', `${base()}/events`, {
      key: project.apiKey,
      body: {
        events: ['vip-1', 'regular'].map((device) => ({ type: 'signed_up', subjectType: 'device', subjectId: device })),
      },
    });
    expect(report.body.data.error).toEqual([]);
    for (const width of [1280, 390]) {
      const { page, close } = await openConsole(width);
      await page.clock.install();
      try {
        await signIn(page);
        await page.goto(`${harness.ingress.baseUrl}/console#/journeys/${id}`);
        // A minute each: on a loaded machine the page and the journey's pushes may take half of one.
        await until(countAfterRefresh(page, 'hello', 'sent'), { timeout: 60_000 }).toBe('2');
        await until(countAfterRefresh(page, 'paid', 'waiting'), { timeout: 60_000 }).toBe('2');
        expect(await count(page, 'welcome', 'entered')).toBe('2');
        expect(await card(page, 'paid').locator('.step-summary').textContent()).toBe(
          'wait up to 2 days for “purchase” whose amount is at least 50',
        );
        expect(await card(page, 'vip-check').locator('.step-summary').textContent()).toBe(
          'if tag group is vip or view at least 1 times in 7 days whose page is pricing',
        );
        expect(await problems(page, 'journey-every-type', width)).toEqual([]);
      } finally {
        await close();
      }
    }
  }, 300_000);

  it('edits the data conditions of entry, exit rules, a wait for an event and a branch, and moves steps', async () => {
    expect(id).not.toBe('');
    const { page, close } = await openConsole(1280);
    try {
      await signIn(page);
      await page.goto(`${harness.ingress.baseUrl}/console#/journeys/${id}`);
      await until(() => card(page, 'paid').locator('.step-summary').textContent()).toContain('purchase');

      // The entry's data condition, with a data field the API refuses: its error on the condition, in words.
      await page.getByRole('button', { name: 'Enter only on events whose data meets a condition' }).click();
      const entryCondition = group(page, 'Entry data condition 1');
      await entryCondition.getByLabel('Data field').fill('plan.name');
      await entryCondition.getByLabel('Value', { exact: true }).fill('pro');
      await page.getByRole('button', { name: 'Add an exit rule' }).click();
      await page.getByLabel('Exit rule 1: leaves on the event').fill('unsubscribed');
      await page.getByRole('button', { name: "Exit rule 1: add a condition on the event's data" }).click();
      const exitCondition = group(page, 'Exit rule 1, data condition 1');
      await exitCondition.getByLabel('Data field').fill('reason');
      await exitCondition.getByLabel('Operator').selectOption('in');
      await exitCondition.getByLabel('Value', { exact: true }).fill('spam, too many');

      await card(page, 'paid').getByRole('button', { name: 'Edit step 3' }).click();
      const paidCondition = group(page, 'Event data condition 1');
      expect(await paidCondition.getByLabel('Data field').inputValue()).toBe('amount');
      expect(await paidCondition.getByLabel('Operator').inputValue()).toBe('gte');
      await paidCondition.getByLabel('Value', { exact: true }).fill('80');
      await page.getByRole('button', { name: 'Done with step 3' }).click();

      await card(page, 'vip-check').getByRole('button', { name: 'Edit step 4' }).click();
      const viewed = group(page, 'Data condition 1 of condition 2');
      expect(await viewed.getByLabel('Data field').inputValue()).toBe('page');
      await viewed.getByLabel('Value', { exact: true }).fill('plans');
      await page.getByRole('button', { name: 'Done with step 4' }).click();

      // The setTags step up above the split: still reached by the branch's "no", by its id.
      await card(page, 'tag').getByRole('button', { name: 'Move step 7 up' }).click();
      await card(page, 'tag').getByRole('button', { name: 'Move step 6 up' }).click();
      expect(await card(page, 'tag').locator('h3').textContent()).toContain('Step 5');

      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent()).toBe(
        'Not saved: a field needs a change, marked in red.',
      );
      expect(await entryCondition.locator('.field-error').textContent()).toMatch(/^Data condition 1 data field: /);
      expect(await page.getByText('/entry/').count()).toBe(0);
      await page.screenshot({ path: resolve(screenshots, 'journey-conditions-error-1280.png'), fullPage: true });

      await entryCondition.getByLabel('Data field').fill('plan');
      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Saved journey' }).textContent()).toBe(
        'Saved journey Every step (version 2).',
      );
      const saved = (await harness.ingress.request('GET', `${base()}/journeys/${id}`, { key: project.apiKey })).body
        .data;
      expect(saved.entry).toEqual({ event: 'signed_up', where: [{ field: 'plan', op: 'eq', value: 'pro' }] });
      expect(saved.exit).toEqual([
        { event: 'unsubscribed', where: [{ field: 'reason', op: 'in', value: ['spam', 'too many'] }] },
      ]);
      const byId = (stepId: string) => saved.steps.find((step: { id: string }) => step.id === stepId);
      expect(byId('paid').where).toEqual([{ field: 'amount', op: 'gte', value: 80 }]);
      expect(byId('vip-check').conditions[1].where).toEqual([{ field: 'page', op: 'eq', value: 'plans' }]);
      expect(saved.steps.map((step: { id: string }) => step.id)).toEqual([
        'welcome',
        'hello',
        'paid',
        'vip-check',
        'tag',
        'test',
        'nudge',
        'thank',
      ]);
      expect(byId('vip-check')).toMatchObject({ onTrue: 'test', onFalse: 'tag' });
      expect(await problems(page, 'journey-conditions', 1280)).toEqual([]);
    } finally {
      await close();
    }
  });
});
