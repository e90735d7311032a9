import { expect, it } from 'vitest';
import {
  readNotification,
  registerDevices,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { useWorkerProcesses } from '../support/gated-worker-processes.ts';

// Events and deliveries run in this process; each journey send runs in a send worker process started by the test,
// which reaches MongoDB through the gate so that the test can delete the journey at one exact step of the send.
const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['deliver', 'event-ingest', 'journey-steps'], projects: { project: 'team' } });
const processes = useWorkerProcesses(harness);

/** A journey on `event` for one new device, and that device's event; answers the journey and its send's id. */
async function triggerJourney(event: string, token: string): Promise<{ journeyId: string; notificationId: string }> {
  const journey = { name: event, trigger: { event }, body: `after ${event}` };
  const created = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/journeys`, {
    key: project.apiKey,
    body: journey,
  });
  expect(created.status).toBe(200);
  const journeyId: string = created.body.data.id;
  await registerDevices(harness.ingress, project, [{ id: token, platform: 'android', token }]);
  const reported = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
    key: project.apiKey,
    body: { events: [{ type: event, subjectType: 'device', subjectId: token }] },
  });
  expect(reported.body.data.error).toEqual([]);
  const [send] = await waitFor(
    () => harness.ingress.context.models.Notification.find({ journeyId }, { _id: 1 }).lean(),
    (sends) => sends.length === 1,
  );
  return { journeyId, notificationId: send!._id };
}

const status = async (notificationId: string) =>
  (await readNotification(harness.ingress, project, notificationId)).status;

/**
 * Starts a send worker process held at its first `command` on `collection`, triggers a journey send for a new device,
 * and deletes the journey while the send is held there; the test releases the gate. Answers the send's id.
 */
async function deleteWhileSendHeld(command: string, collection: string, token: string): Promise<string> {
  const gate = processes.gate();
  gate.hold(command, collection);
  await processes.start('send');
  const { journeyId, notificationId } = await triggerJourney(`event-${token}`, token);
  await eventually(() => expect(gate.held()).toBe(1), 20_000);
  const deleted = await harness.ingress.request('DELETE', `/v1/projects/${project.projectId}/journeys/${journeyId}`, {
    key: project.apiKey,
  });
  expect(deleted.status).toBe(200);
  return notificationId;
}

it("a journey deleted after its push step's send has read the journey, before the send starts: the send stays canceled and nothing goes out", async () => {
  // The send's first write: the claim of its notification, right after it found the journey there.
  const notificationId = await deleteWhileSendHeld('update', 'notifications', 'jd-cart');
  expect(await status(notificationId)).toBe('canceled');
  processes.gate().release();

  await eventually(async () =>
    expect(await harness.ingress.context.queues.send.getJobState(notificationId)).toBe('completed'),
  );
  expect(await status(notificationId)).toBe('canceled');
  expect(harness.sandbox.deliveries('jd-cart')).toEqual([]);
}, 60_000);

it("a journey deleted once its push step's send has started: the send is shown sending, never canceled, and goes out once", async () => {
  // The send's read of its target device, after it claimed its notification.
  const notificationId = await deleteWhileSendHeld('find', 'devices', 'jd-signup');
  expect(await status(notificationId)).toBe('sending');
  processes.gate().release();

  const notification = await waitUntilCompleted(harness.ingress, project, notificationId);
  expect(notification.stats).toMatchObject({ targeted: 1, sent: 1 });
  expect(harness.sandbox.deliveries('jd-signup')).toHaveLength(1);
}, 60_000);
