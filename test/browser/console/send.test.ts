import { describe, expect, it } from 'vitest';
import { registerDevices } from '../../support/delivery-harness.ts';
import { vip, until, show, useConsole } from '../../support/console.ts';

const { harness, project, openConsole, signIn } = useConsole();

describe("the console's Send screen", { timeout: 120_000 }, () => {
  it('creates a template, builds a segment with a live count, sends to it and follows the funnel to completed', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Welcome');
      await page.getByLabel('Title').fill('Hi {{ device.tags.name');
      await page.getByLabel('Body').fill('Hello {{ device.tags.name | default: "friend" }}');
      // A Liquid syntax error is shown beside its field, in words.
      await until(() => page.locator('#field-template-title-error').textContent()).toContain(
        'A {{ }} or {% %} here is incomplete or misspelt',
      );
      await page.getByLabel('Title').fill('Hi {{ device.tags.name }}');
      await page.getByRole('region', { name: 'Preview', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Preview for device id').fill('vip-2');
      await until(() => page.getByTestId('template-preview').textContent()).toBe('Hi GraceHello Grace');
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByRole('status').filter({ hasText: 'Created "Welcome"' }).waitFor();

      await show(page, 'segments');
      await page.getByLabel('Name').fill('VIPs');
      await page.getByLabel('Tag', { exact: true }).fill('group');
      await page.getByLabel('Value', { exact: true }).fill('vip');
      await until(() => page.getByTestId('segment-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByLabel('Value', { exact: true }).fill('nobody');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Value', { exact: true }).fill('vip');
      await until(() => page.getByTestId('segment-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Created "VIPs"' }).waitFor();

      // An event condition with a condition on the event's data: vip-1 bought for 12, vip-2 for 5.
      await page.getByRole('button', { name: 'New segment' }).click();
      await page.getByLabel('Kind').selectOption('event');
      await page.getByLabel('Event type').fill('purchase');
      await page.getByRole('button', { name: "Add a condition on the event's data" }).click();
      await page.getByLabel('Data field').fill('amount');
      await page.getByLabel('Operator').selectOption('gte');
      // Typed as 10, the value is the number 10 without choosing a value type: as text it matched no amount at all.
      await page.getByLabel('Value', { exact: true }).fill('10');
      await until(() => page.getByTestId('segment-sample').textContent()).toBe('vip-1');
      expect(await page.getByTestId('segment-count').textContent()).toBe('1 subscribed device');
      // Event data keeps an ISO time as a time, which milliseconds never reach: the data condition says so.
      const valueTypes = await page.getByLabel('Value type').locator('option').allTextContents();
      expect(valueTypes).toContain('Number');
      expect(valueTypes).not.toContain('Number or time (ms)');
      expect(await page.getByText(/compares as a time when typed with its zone/).count()).toBe(1);
      // Text the number type cannot read is sent as typed: as null it matched every purchase without a coupon.
      await page.getByLabel('Data field').fill('coupon');
      await page.getByLabel('Operator').selectOption('eq');
      await page.getByLabel('Value type').selectOption('number');
      await page.getByLabel('Value', { exact: true }).fill('abc');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      // Saved, so that leaving the screen has nothing to ask.
      await page.getByLabel('Name').fill('Coupon abc');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Created "Coupon abc"' }).waitFor();

      await show(page, 'send');
      // The live count for each kind of audience: a user's subscribed devices, one device, then the segment.
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('console-user');
      await until(() => page.getByTestId('audience-count').textContent()).toBe('1 subscribed device');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('no-such-device');
      await until(() => page.getByTestId('audience-count').textContent()).toBe(
        'Cannot count: No device "no-such-device" in this project.',
      );
      await page.getByLabel('Send to').selectOption('segment');
      // No segment is chosen for the user: sending to the first one in the list by accident is not possible.
      await until(() => page.getByTestId('audience-count').textContent()).toBe('Choose an audience.');
      await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'VIPs' });
      await page.getByLabel('Content from').selectOption('template');
      await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Welcome' });
      await until(() => page.getByTestId('audience-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByRole('group', { name: 'Preview', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Preview for device id').fill('vip-1');
      await until(() =>
        page.getByTestId('send-preview').locator('[data-platform="ios"] .push-text').textContent(),
      ).toBe('Hi AdaHello Ada');
      await page.getByRole('group', { name: 'Send', exact: true }).getByText('Advanced').click();
      const idempotencyKey = await page.getByLabel('Idempotency-Key').inputValue();
      expect(idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
      await page.getByRole('button', { name: 'Send…', exact: true }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        `Send it to ${vip.length} subscribed devices now?`,
      );
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      const notificationId = (await accepted.locator('code').textContent())!;
      // The key is bound to the console's send: another body under it within 24 hours is refused (CONTRACTS §1).
      const replay = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
        key: project.apiKey,
        body: { targetType: 'device', targetIds: ['regular'], body: 'x' },
        headers: { 'idempotency-key': idempotencyKey },
      });
      expect(replay.status).toBe(422);
      expect(replay.body.error.code).toBe('idempotency_key_reused');
      expect(notificationId).toMatch(/^[0-9a-f-]{36}$/);

      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${notificationId}"]`);
      await until(() => row.getByTestId('status').textContent(), { timeout: 20_000 }).toBe('completed');
      const stat = async (name: string) =>
        (await row.locator(`[data-stat="${name}"]`).textContent())!.replace(/\D+/g, ' ').trim();
      const delivered = vip.filter((device) =>
        harness.sandbox
          .deliveries(device.token)
          .some((delivery) => JSON.stringify(delivery.payload).includes(notificationId)),
      );
      expect(delivered.map((device) => device.id)).toEqual(['vip-1', 'vip-2']);
      expect(await stat('targeted')).toBe(String(vip.length));
      expect(await stat('sent')).toBe(String(delivered.length));
      expect(await stat('unsubscribed')).toBe('1');
      expect(await stat('failed')).toBe('0');
      expect(await stat('clicked')).toBe('0');
      expect(await row.textContent()).toContain('Hello {{ device.tags.name | default: "friend" }}');

      // A click reported by the SDK shows on the next read of the list.
      const click = await harness.ingress.request(
        'POST',
        `/v1/sdk/projects/${project.projectId}/devices/vip-1/events`,
        {
          key: project.clientKey,
          body: { type: '@clicked', data: { notificationId } },
        },
      );
      expect(click.status).toBe(200);
      await page.reload();
      await until(() => stat('clicked')).toBe('1');
    } finally {
      await close();
    }
  });

  it('sends only once the send is confirmed: Enter in a field asks, an audience of nobody cannot be confirmed, and an edit hides the notice of the last send', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'confirm-me', platform: 'android', token: 'console-confirm-me', userId: 'confirming' },
    ]);
    const sent = async () =>
      (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications`, { key: owner.apiKey }))
        .body.data.length;
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Body').fill('Confirmed');
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('nobody-here');
      await until(() => page.getByTestId('audience-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Title').press('Enter');
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'No subscribed device would get it: choose another audience.',
      );
      // The question has the focus on Cancel: Escape answers it so.
      await page.keyboard.press('Escape');
      expect(await page.getByTestId('send-confirmation').count()).toBe(0);
      await page.getByLabel('Title').press('Enter');
      expect(await page.getByRole('button', { name: 'Confirm send' }).isDisabled()).toBe(true);

      await page.getByLabel('User id').fill('confirming');
      // The audience changed: the question is asked again, not carried over.
      expect(await page.getByTestId('send-confirmation').count()).toBe(0);
      // Asked at once, before the new audience is counted, it never answers with the count of the one before.
      await page.getByLabel('Title').press('Enter');
      expect(['Counting the audience…', 'Send it to 1 subscribed device now?']).toContain(
        await page.getByTestId('send-confirmation').textContent(),
      );
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'Send it to 1 subscribed device now?',
      );
      expect(await sent()).toBe(0);
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      await accepted.waitFor();
      expect(await sent()).toBe(1);
      await page.getByLabel('Body').fill('Confirmed, edited');
      await until(() => accepted.count()).toBe(0);
      // The message as sent is no unsaved work, whatever the audience becomes: leaving asks nothing.
      await page.getByLabel('Body').fill('Confirmed');
      await page.getByLabel('User id').fill('someone-else');
      await show(page, 'templates');
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it("schedules a send at a time of the browser's zone, and cancels it from the Notifications screen", async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'plan-me', platform: 'android', token: 'console-plan-me', userId: 'planner' },
    ]);
    // Tomorrow, to the minute, typed as Seoul's wall clock (UTC+9, no daylight saving).
    const sendAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 24 * 60 * 60 * 1000);
    const seoulWallClock = new Date(sendAt.getTime() + 9 * 60 * 60 * 1000).toISOString().slice(0, 16);
    const { page, close } = await openConsole(1280, 'Asia/Seoul');
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Body').fill('Tomorrow');
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('planner');
      await page.getByLabel('When').selectOption('later');
      expect(await page.getByRole('button', { name: 'Schedule…' }).isDisabled()).toBe(true);
      // A mistyped date in the past would be sent at once: it cannot be confirmed as a schedule.
      await page.getByLabel('Send at').fill('2020-01-02T09:30');
      await page.getByRole('button', { name: 'Schedule…' }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'That time has passed: choose a later one, or send it now.',
      );
      expect(await page.getByRole('button', { name: 'Confirm schedule' }).isDisabled()).toBe(true);
      await page.getByLabel('Send at').fill(seoulWallClock);
      await page.getByRole('button', { name: 'Schedule…' }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toMatch(
        /^Schedule it for .+\? The audience is read again then; it has 1 subscribed device now\.$/,
      );
      await page.getByRole('button', { name: 'Confirm schedule' }).click();
      const scheduled = page.getByRole('status').filter({ hasText: 'Scheduled for' });
      const id = (await scheduled.locator('code').textContent())!;
      const stored = await harness.ingress.context.models.Notification.findById(id).lean();
      expect(stored?.sendAt?.toISOString()).toBe(sendAt.toISOString());
      // Made two minutes old, a scheduled send the list reads again only every 30 s: the cancel's answer must show.
      await harness.ingress.context.models.Notification.collection.updateOne(
        { _id: id as never },
        { $set: { createdAt: new Date(Date.now() - 120_000) } },
      );

      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await until(() => row.getByTestId('status').textContent()).toBe('queued');
      await row.getByRole('button', { name: 'Cancel send' }).click();
      await row.getByRole('button', { name: 'Yes, cancel send' }).click();
      await until(() => row.getByTestId('status').textContent()).toBe('canceled');
      expect(await row.getByRole('button', { name: 'Cancel send' }).count()).toBe(0);
      const read = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications/${id}`, {
        key: owner.apiKey,
      });
      expect(read.body.data.status).toBe('canceled');
    } finally {
      await close();
    }
  });

  it('after sends whose answers were lost, retries each message with its own Idempotency-Key, and an edited one with a new key', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'lost-answer', platform: 'android', token: 'console-lost' }]);
    const { page, close } = await openConsole();
    try {
      const keys: string[] = [];
      await page.route(`${harness.ingress.baseUrl}/v1/projects/*/notifications`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        keys.push(route.request().headers()['idempotency-key']!);
        if (keys.length > 3) return route.continue();
        // The ingress takes the send; its answer never reaches the console.
        await route.fetch();
        await route.abort('connectionreset');
      });
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('lost-answer');
      const lost = page.getByRole('alert').filter({ hasText: 'could not be reached' });
      const sendLosingAnswer = async (body: string) => {
        await page.getByLabel('Body').fill(body);
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
          'Send it to 1 subscribed device now?',
        );
        const tried = keys.length;
        await page.getByRole('button', { name: 'Confirm send' }).click();
        await until(() => keys.length).toBe(tried + 1);
        await lost.waitFor();
      };
      await sendLosingAnswer('Frist');
      await sendLosingAnswer('Frist');
      // The typo fixed: another send, which the first one's key would answer as the first.
      await sendLosingAnswer('First');
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      const sendAnswered = async (body: string) => {
        await page.getByLabel('Body').fill(body);
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await page.getByRole('button', { name: 'Confirm send' }).click();
        await accepted.waitFor();
      };
      // A key typed by hand for another message is the one sent.
      await page.getByRole('group', { name: 'Send', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Idempotency-Key').fill('typed-by-hand-1');
      await sendAnswered('Third');
      // Back to the first message: a retry of that send, which was accepted while its answers were lost.
      await sendAnswered('Frist');
      expect(keys).toEqual([keys[0], keys[0], expect.not.stringMatching(keys[0]!), 'typed-by-hand-1', keys[0]]);
      const bodies = (
        await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications`, { key: owner.apiKey })
      ).body.data.map((notification: { body: string }) => notification.body);
      expect(bodies.sort()).toEqual(['First', 'Frist', 'Third']);
    } finally {
      await close();
    }
  });

  it("says why an audience cannot be counted, with what each field's detail says", async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('not a device id');
      await until(() => page.getByTestId('audience-count').textContent()).toBe(
        'Cannot count: The request is not valid; see details for each field. deviceId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, other than . and ..',
      );
    } finally {
      await close();
    }
  });
});
