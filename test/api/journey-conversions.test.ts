import { beforeAll, describe, expect, it } from 'vitest';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, listening, useJourneyHarness } from '../support/journeys.ts';
import { patchSettings } from '../support/timing.ts';

const { harness, project, journeys, bodies } = useJourneyHarness();
const device = deviceEvent;

beforeAll(async () => {
  await patchSettings(harness.ingress, project, { conversions: [{ event: 'purchase', valueField: 'amount' }] });
  await registerDevices(harness.ingress, project, [
    { id: 'cv-buyer', platform: 'android', token: 'cv-tok-buyer' },
    { id: 'cv-browser', platform: 'android', token: 'cv-tok-browser' },
  ]);
});

describe('conversions in journeys (CONTRACTS §18, §19)', () => {
  it("counts a push step's conversions in its stats, and branches on whether the visit converted", async () => {
    const id = await journeys.create({
      name: 'Offer',
      entry: { event: 'cv-enter' },
      steps: [
        { id: 'offer', type: 'push', body: 'Offer' },
        {
          id: 'back',
          type: 'waitForEvent',
          event: 'cv-back',
          timeoutSeconds: 600,
          onEvent: 'check',
          onTimeout: 'exit',
        },
        {
          id: 'check',
          type: 'branch',
          match: 'all',
          conditions: [{ converted: 'purchase' }],
          onTrue: 'thanks',
          onFalse: 'nudge',
        },
        { id: 'thanks', type: 'push', body: 'Thanks for buying', next: 'exit' },
        { id: 'nudge', type: 'push', body: 'Still thinking?' },
      ],
    });
    await journeys.report([device('cv-buyer', 'cv-enter'), device('cv-browser', 'cv-enter')]);
    // The push is credited once its result is recorded, which the step's sent count reads.
    await waitFor(
      async () => (await journeys.read(id)).stats.steps.offer.sent,
      (sent) => sent === 2,
    );
    await journeys.report([device('cv-buyer', 'purchase', { amount: 20 })]);
    await waitFor(
      async () => (await journeys.read(id)).stats.steps.offer.conversions,
      (conversions) => conversions === 1,
    );
    await listening(harness.ingress.context.models, id, 'back', ['cv-buyer', 'cv-browser']);
    await journeys.report([device('cv-buyer', 'cv-back'), device('cv-browser', 'cv-back')]);
    await waitFor(
      async () => [...bodies('cv-tok-buyer'), ...bodies('cv-tok-browser')],
      (list) => list.length === 4,
    );
    expect(bodies('cv-tok-buyer')).toEqual(['Offer', 'Thanks for buying']);
    expect(bodies('cv-tok-browser')).toEqual(['Offer', 'Still thinking?']);
    await eventually(async () => {
      const { stats } = await journeys.read(id);
      expect(stats.steps.offer).toMatchObject({ sent: 2, conversions: 1 });
      expect(stats.steps.thanks.conversions).toBe(0);
    });
  });
});
