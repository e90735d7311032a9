import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerDevices, sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { screenshots, until, show, useConsole } from '../../support/console.ts';
import { startTestWorkers, type TestWorkers } from '../../support/workers.ts';

const { harness, openConsole, signIn } = useConsole();

let importWorkers: TestWorkers | undefined;
afterAll(async () => {
  await importWorkers?.close();
});

const rows = 2000;
const csv = [
  'id,platform,pushToken,userId,tag:plan',
  ...Array.from({ length: rows }, (_, index) => `imp-${index},android,tok-imp-${index},user-${index},"gold, ""vip"""`),
  'bad id!,android,tok,,',
  'no-token,ios,,,',
].join('\n');

describe("the console's device import and exports", { timeout: 180_000 }, () => {
  it('uploads a file, shows its progress live until done with its line errors, and exports the devices', async () => {
    const owner = await harness.ingress.createProject('team');
    for (const width of [1280, 390]) {
      const { page, close } = await openConsole(width);
      try {
        await signIn(page, owner.apiKey);
        await show(page, 'device-imports');
        await page.getByLabel('Devices file').setInputFiles({
          name: 'devices.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(csv),
        });
        await page.getByRole('button', { name: 'Import' }).click();
        const progress = page.locator('section[data-import]');
        // No worker has taken the first upload yet: the page shows it waiting, then follows it by itself.
        if (width === 1280) {
          await until(() => progress.getAttribute('data-status')).toBe('queued');
          expect(await progress.textContent()).toContain('waiting to start');
          importWorkers = await startTestWorkers(harness.config, ['device-import']);
        }
        await until(() => progress.getAttribute('data-status'), { timeout: 60_000 }).toBe('completed');
        expect(await page.getByTestId('import-rows').textContent()).toBe(String(rows + 2));
        expect(await page.getByTestId('import-created').textContent()).toBe(width === 1280 ? String(rows) : '0');
        expect(await page.getByTestId('import-failed').textContent()).toBe('2');
        const errors = page.getByTestId('import-errors').locator('tbody tr');
        expect(await errors.allTextContents()).toEqual([
          expect.stringMatching(/^2002id must be 1 to 128 characters/),
          expect.stringMatching(/^2003pushToken is required for android and ios devices/),
        ]);
        expect(
          await progress
            .locator('progress')
            .evaluate((bar) => Number(bar.getAttribute('value')) / Number(bar.getAttribute('max'))),
        ).toBe(1);
        await page.screenshot({ path: resolve(screenshots, `device-imports-${width}.png`), fullPage: true });

        await show(page, 'devices');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Export all devices (CSV)' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('devices.csv');
        const exported = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
        expect(exported[0]).toBe('id,platform,pushToken,webPush,userId,language,timezone,isSubscribed,tag:plan');
        expect(exported).toHaveLength(rows + 1);
        expect(exported).toContain('imp-0,android,tok-imp-0,,user-0,,,true,"gold, ""vip"""');
        await page.screenshot({ path: resolve(screenshots, `devices-export-${width}.png`) });
      } finally {
        await close();
      }
    }
  });

  it("downloads a notification's delivery log as CSV from its page", async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'log-ok', platform: 'android', token: 'tok-log-ok' },
      { id: 'log-gone', platform: 'ios', token: 'unregistered-log' },
    ]);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['log-ok', 'log-gone'],
      title: 'Logged',
      body: 'Download me',
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      await page.locator(`tr[data-notification="${id}"]`).getByRole('link', { name: 'Details' }).click();
      await page.getByRole('heading', { name: 'Logged' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the delivery log (CSV)' }).click(),
      ]);
      const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
      expect(lines[0]).toBe('deviceId,platform,outcome,reason,at');
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
        'log-gone,ios,unsubscribed',
        'log-ok,android,sent',
      ]);
    } finally {
      await close();
    }
  });
});
