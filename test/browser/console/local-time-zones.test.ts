import { describe, it } from 'vitest';
import { show, until, useConsole } from '../../support/console.ts';
import { sendNotification } from '../../support/delivery-harness.ts';
import { insertUserDevices } from '../../support/timing.ts';

const { harness, project, openConsole, signIn } = useConsole();

describe("the notifications list and a local-time send's zones (CONTRACTS §15)", { timeout: 120_000 }, () => {
  it('shows how many of its zones are sent while the others wait', async () => {
    await insertUserDevices(harness.ingress, project, 'zones-', 2, {
      userId: 'zoe',
      timezones: ['UTC', 'Asia/Tokyo'],
    });
    // Scheduled from this minute at this minute's UTC clock: the UTC device's time has come, Tokyo's is 15 hours away.
    const sendAt = new Date();
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['zoe'],
      body: 'Good morning',
      sendAt: sendAt.toISOString(),
      localTime: sendAt.toISOString().slice(11, 16),
    });
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await until(() => row.locator('[data-stat="zones"]').textContent()).toBe('1 of 2 zones sent');
      await until(() => row.getByTestId('status').textContent()).toBe('sending');
      await until(() => row.locator('[data-stat="waiting"]').textContent()).toBe('not sent 1');
    } finally {
      await close();
    }
  });
});
