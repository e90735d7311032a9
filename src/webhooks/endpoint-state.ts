import type { Models } from '../models/index.ts';

type EndpointModels = Pick<Models, 'WebhookEndpoint'>;

/**
 * The service disables an endpoint with the reason and the time, which its view and the console show; `stillTrue`
 * adds what the stored endpoint must still hold for it.
 */
export async function disableEndpoint(
  models: EndpointModels,
  endpointId: string,
  reason: string,
  stillTrue: Record<string, unknown> = {},
): Promise<void> {
  await models.WebhookEndpoint.updateOne(
    { _id: endpointId, enabled: true, ...stillTrue },
    { $set: { enabled: false, disabledReason: reason, disabledAt: new Date() } },
  );
}

const duration = (ms: number) => (ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} hours` : `${ms / 1000} s`);

/** A 2xx ends the endpoint's run of failures. */
export async function noteSuccess(models: EndpointModels, endpointId: string): Promise<void> {
  await models.WebhookEndpoint.updateOne(
    { _id: endpointId, failingSince: { $ne: null } },
    { $set: { failingSince: null } },
  );
}

/**
 * A failed call starts the endpoint's run of failures, or continues it: one failing for the whole retry window (with
 * no 2xx in between) is disabled, as no event could reach it meanwhile.
 */
export async function noteFailure(
  models: EndpointModels,
  endpointId: string,
  failingSince: Date | null | undefined,
  windowMs: number,
): Promise<void> {
  const now = new Date();
  if (!failingSince) {
    await models.WebhookEndpoint.updateOne({ _id: endpointId, failingSince: null }, { $set: { failingSince: now } });
    return;
  }
  // Checked again on the stored endpoint: a 2xx of another call may have ended the run since failingSince was read.
  const windowStart = new Date(now.getTime() - windowMs);
  if (failingSince <= windowStart)
    await disableEndpoint(models, endpointId, `every call failed for ${duration(windowMs)}`, {
      failingSince: { $lte: windowStart },
    });
}
