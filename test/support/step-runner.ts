import type { Models } from '../../src/models/index.ts';
import { useDeliveryHarness } from './delivery-harness.ts';
import { journeyClient } from './journeys.ts';

/**
 * The send and deliver workers with no journey-steps worker: the test claims and runs the steps itself, so that it can
 * act between the two. One team project, and a client of its journeys.
 */
export function useStepRunnerHarness() {
  const {
    harness,
    projects: { project },
  } = useDeliveryHarness({ queues: ['send', 'deliver'], projects: { project: 'team' } });
  const journeys = journeyClient(
    () => harness.ingress,
    () => project,
  );
  return { harness, project, journeys };
}

/** How many writes of the travellers' records `run` made (the step runner writes them with bulkWrite). */
export async function travellerWrites(models: Models, run: () => Promise<unknown>): Promise<number> {
  const model = models.JourneyTraveller;
  const real = model.bulkWrite;
  let writes = 0;
  model.bulkWrite = ((...args: Parameters<typeof real>) => {
    writes += 1;
    return real.apply(model, args);
  }) as typeof real;
  try {
    await run();
  } finally {
    model.bulkWrite = real;
  }
  return writes;
}
