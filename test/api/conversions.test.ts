import { afterAll, describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { ingestEvents } from '../../src/events/ingest-events.ts';
import { EventTypeCatalog } from '../../src/events/event-type-catalog.ts';
import { ProjectSettingsCache } from '../../src/projects/project-settings-cache.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { patchSettings } from '../support/timing.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { dailyCounts } from '../../src/overview/daily-counts.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const { harness } = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest', 'webhook'] });
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

/** A fresh project counting these conversions, with an endpoint subscribed to message.converted. */
async function projectConverting(conversions: object[]): Promise<CreatedProject> {
  const project = await harness.ingress.createProject('team');
  await patchSettings(harness.ingress, project, { conversions });
  const created = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: `${receiver.url}/${project.projectId}`, events: ['message.converted'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return project;
}

async function sendTo(project: CreatedProject, deviceId: string, title: string): Promise<string> {
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: [deviceId],
    title,
    body: title,
  });
  await waitUntilCompleted(harness.ingress, project, id);
  return id;
}

/**
 * Reports the events through the server API and waits until the ingest worker has stored them: counted by type, as the
 * project's automatic events (a registration's `@first_session`, a click's `@clicked`) may be stored meanwhile.
 */
async function report(project: CreatedProject, events: { type: string; [field: string]: unknown }[]): Promise<void> {
  const path = `/v1/projects/${project.projectId}/events`;
  const countsByType = async () => {
    const stored = (await harness.ingress.request('GET', `${path}?limit=500`, { key: project.apiKey })).body.data;
    return events.map(({ type }) => stored.filter((event: { type: string }) => event.type === type).length);
  };
  const before = await countsByType();
  const answer = await harness.ingress.request('POST', path, { key: project.apiKey, body: { events } });
  expect(answer.body.data.success).toBe(events.length);
  const reported = events.map(({ type }) => events.filter((event) => event.type === type).length);
  await waitFor(countsByType, (counts) => counts.every((count, index) => count === before[index]! + reported[index]!));
}

const conversionsOf = async (project: CreatedProject, id: string) =>
  (await readNotification(harness.ingress, project, id)).stats.conversions;
describe('conversions (CONTRACTS §19)', () => {
  it('credit the later of two pushes, once, with its value; a second conversion adds nothing', async () => {
    const project = await projectConverting([{ event: 'purchase', valueField: 'amount' }]);
    await registerDevices(harness.ingress, project, [{ id: 'buyer', platform: 'android', token: 'tok-buyer' }]);
    const first = await sendTo(project, 'buyer', 'first');
    const second = await sendTo(project, 'buyer', 'second');
    await report(project, [
      { type: 'viewed', subjectType: 'device', subjectId: 'buyer' },
      { type: 'purchase', subjectType: 'device', subjectId: 'buyer', data: { amount: 30 } },
    ]);
    await eventually(async () =>
      expect(await conversionsOf(project, second)).toEqual({ purchase: { count: 1, value: 30 } }),
    );
    await report(project, [{ type: 'purchase', subjectType: 'device', subjectId: 'buyer', data: { amount: 5 } }]);
    expect(await conversionsOf(project, second)).toEqual({ purchase: { count: 1, value: 30 } });
    expect(await conversionsOf(project, first)).toBeUndefined();
    const calls = await eventually(() => {
      const found = receiver.ofType('message.converted').filter((call) => call.event.data.notificationId === second);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(calls[0]!.event.data).toEqual({ notificationId: second, deviceId: 'buyer', event: 'purchase', value: 30 });
    expect(receiver.ofType('message.converted').some((call) => call.event.data.notificationId === first)).toBe(false);
  });

  it('credit nothing outside the window', async () => {
    const project = await projectConverting([{ event: 'purchase', windowHours: 1 }]);
    await registerDevices(harness.ingress, project, [{ id: 'late', platform: 'ios', token: 'tok-late' }]);
    const sent = await sendTo(project, 'late', 'too early');
    // A purchase received an hour and a minute after the push, through the real ingest code.
    const deps = {
      ...harness.workers.context,
      catalog: new EventTypeCatalog(harness.workers.context.models),
      settings: new ProjectSettingsCache(harness.workers.context.models),
    };
    const receivedAt = new Date(Date.now() + 61 * 60_000).toISOString();
    const events = [{ type: 'purchase', subjectType: 'device' as const, subjectId: 'late', data: {} }];
    await ingestEvents(deps, 'late-purchase', { projectId: project.projectId, receivedAt, events }, async () => {});
    const inWindow = new Date(Date.now() + 59 * 60_000).toISOString();
    expect(await conversionsOf(project, sent)).toBeUndefined();
    await ingestEvents(
      deps,
      'in-window',
      { projectId: project.projectId, receivedAt: inWindow, events },
      async () => {},
    );
    expect(await conversionsOf(project, sent)).toEqual({ purchase: { count: 1, value: 0 } });
  });

  it('with click attribution, credit only a clicked push', async () => {
    const project = await projectConverting([{ event: 'signup', attribution: 'click' }]);
    await registerDevices(harness.ingress, project, [{ id: 'clicker', platform: 'android', token: 'tok-clicker' }]);
    const clicked = await sendTo(project, 'clicker', 'clicked');
    const later = await sendTo(project, 'clicker', 'not clicked');
    const click = await harness.ingress.request(
      'POST',
      `/v1/sdk/projects/${project.projectId}/devices/clicker/events`,
      { key: project.clientKey, body: { type: '@clicked', data: { notificationId: clicked } } },
    );
    expect(click.status).toBe(200);
    // The conversion is reported once the click is recorded, as it would come after it.
    await eventually(async () =>
      expect((await readNotification(harness.ingress, project, clicked)).stats.clicked).toBe(1),
    );
    await report(project, [{ type: 'signup', subjectType: 'device', subjectId: 'clicker' }]);
    await eventually(async () =>
      expect(await conversionsOf(project, clicked)).toEqual({ signup: { count: 1, value: 0 } }),
    );
    expect(await conversionsOf(project, later)).toBeUndefined();
  });

  it("credit a user's conversion to a push sent to another of the user's devices", async () => {
    const project = await projectConverting([{ event: 'purchase', valueField: 'amount' }]);
    await registerDevices(harness.ingress, project, [
      { id: 'phone', platform: 'android', token: 'tok-phone', userId: 'shopper' },
      { id: 'laptop', platform: 'ios', token: 'tok-laptop', userId: 'shopper' },
    ]);
    const sent = await sendTo(project, 'phone', 'to the phone');
    await report(project, [{ type: 'purchase', subjectType: 'user', subjectId: 'shopper', data: { amount: 12.5 } }]);
    await eventually(async () =>
      expect(await conversionsOf(project, sent)).toEqual({ purchase: { count: 1, value: 12.5 } }),
    );
    const call = await eventually(() => {
      const found = receiver.ofType('message.converted').filter((entry) => entry.event.data.notificationId === sent);
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(call.event.data).toEqual({ notificationId: sent, userId: 'shopper', event: 'purchase', value: 12.5 });
  });

  it("count on the overview's day the conversions credited, the same before and after a flush", async () => {
    const project = await projectConverting([{ event: 'purchase' }, { event: 'signup', attribution: 'click' }]);
    const buyers = ['o1', 'o2', 'o3'];
    await registerDevices(
      harness.ingress,
      project,
      buyers.map((id) => ({ id, platform: 'android', token: `tok-${project.projectId}-${id}` })),
    );
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: buyers,
      body: 'hi',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    const today = async () =>
      (
        await harness.ingress.request('GET', `/v1/projects/${project.projectId}/overview?days=1`, {
          key: project.apiKey,
        })
      ).body.data.days[0];
    const purchase = (subjectId: string) => ({ type: 'purchase', subjectType: 'device', subjectId });
    // Two buyers convert, one twice (counted once); a signup without a click credits nothing.
    await report(project, [
      purchase('o1'),
      purchase('o2'),
      purchase('o1'),
      { type: 'signup', subjectType: 'device', subjectId: 'o3' },
    ]);
    const credited = async () => (await conversionsOf(project, id))?.purchase?.count ?? 0;
    // The day's count is added after the credits are made, by the same ingest job.
    await eventually(async () => {
      expect(await credited()).toBe(2);
      expect((await today()).conversions).toBe(2);
    });
    await flushAllGatheredCounts(harness.ingress.context, dailyCounts, project.projectId);
    const { DailyCount } = harness.ingress.context.models;
    expect((await DailyCount.findById(`${project.projectId}:${(await today()).day}`).lean())?.conversions).toBe(2);
    expect((await today()).conversions).toBe(2);
    await report(project, [purchase('o3')]);
    await eventually(async () => {
      expect(await credited()).toBe(3);
      expect((await today()).conversions).toBe(3);
    });
  });
});
