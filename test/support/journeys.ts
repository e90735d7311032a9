import { expect } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import type { TestIngress } from './ingress.ts';
import type { Sandbox } from '../../sandbox/start-sandbox.ts';
import type { Models } from '../../src/models/index.ts';
import { useDeliveryHarness, type DeliveryHarnessOptions } from './delivery-harness.ts';
import { eventually, waitFor } from './eventually.ts';

/** The journeys API and the events that drive it, for one project. */
export function journeyClient(ingress: () => TestIngress, project: () => CreatedProject) {
  const path = (rest = '') => `/v1/projects/${project().projectId}/journeys${rest}`;
  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', rest = '', body?: object) =>
    ingress().request(method, path(rest), { key: project().apiKey, body });
  return {
    request,
    async create(body: object): Promise<string> {
      const response = await request('POST', '', body);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data.id;
    },
    async read(id: string) {
      const response = await request('GET', `/${id}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data;
    },
    /** Until the journey's stats (CONTRACTS §18) match `expected`: counts are written after the records they count. */
    statsBecome(id: string, expected: object) {
      return eventually(async () => expect((await request('GET', `/${id}`)).body.data?.stats).toMatchObject(expected));
    },
    async visits(id: string, subjectType: 'device' | 'user', subjectId: string) {
      const response = await request('GET', `/${id}/travellers/${subjectType}/${subjectId}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data;
    },
    async report(events: object[]): Promise<void> {
      const response = await ingress().request('POST', `/v1/projects/${project().projectId}/events`, {
        key: project().apiKey,
        body: { events },
      });
      expect(response.body.data.error).toEqual([]);
    },
  };
}

/**
 * Until each subject's traveller listens at the waitForEvent step: only an event ingested from then on counts
 * (CONTRACTS §18), and a push step before it can be delivered before its traveller gets there.
 */
export const listening = (models: Models, journeyId: string, stepId: string, subjectIds: string[]) =>
  waitFor(
    () =>
      models.JourneyTraveller.countDocuments({ journeyId, subjectId: { $in: subjectIds }, 'listening.stepId': stepId }),
    (count) => count === subjectIds.length,
  );

/**
 * A wait's time made to pass, as its stored due time says: the journeys' waiting or held travellers are due now. A
 * test then waits long enough (minutes) to act on a waiting traveller however slow the machine, and no longer.
 */
export const waitsOver = (models: Models, journeyIds: string[]) =>
  models.JourneyTraveller.updateMany(
    { journeyId: { $in: journeyIds }, state: { $in: ['due', 'held'] } },
    { $set: { dueAt: new Date() } },
  );

/** The bodies of the pushes an Android or iOS token was sent. */
export const bodiesTo = (sandbox: Sandbox, token: string): string[] =>
  sandbox
    .deliveries(token)
    .map((delivery) => (delivery.payload as any).notification?.body ?? (delivery.payload as any).aps?.alert?.body);

/** A push step, and a device's event, as the journey tests write them. */
export const pushStep = (id: string, body: string, extra: object = {}) => ({ id, type: 'push', body, ...extra });
export const deviceEvent = (id: string, type: string, data: object = {}) => ({
  type,
  subjectType: 'device',
  subjectId: id,
  data,
});

type Queues = NonNullable<DeliveryHarnessOptions<'project'>['queues']>;

/** Services with the workers journeys need (and any more), one project, its journeys API and the pushes it sent. */
export const useJourneyHarness = (moreQueues: Queues = []) =>
  journeyHarness(['send', 'deliver', 'event-ingest', 'journey-steps', ...moreQueues]);

/** As useJourneyHarness without the journey-steps worker: the test runs the step runner's batches itself. */
export const useJourneyHarnessWithoutRunner = () => journeyHarness(['send', 'deliver', 'event-ingest']);

function journeyHarness(queues: Queues) {
  const {
    harness,
    projects: { project },
  } = useDeliveryHarness({ queues, projects: { project: 'team' } });
  const journeys = journeyClient(
    () => harness.ingress,
    () => project,
  );
  const bodies = (token: string) => bodiesTo(harness.sandbox, token);
  return { harness, project, journeys, bodies };
}
