import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { claimBinding, keyDigest } from '../infra/idempotency-binding.ts';
import { idempotencyKeyReused } from '../errors.ts';

export const idempotencyWindowSeconds = 24 * 60 * 60;

function bindingKey(deps: Pick<Deps, 'config'>, projectId: string, key: string): string {
  return redisKeys.idempotency(deps.config.queuePrefix, projectId, keyDigest(key));
}

/** A key's binding: the notification its first request made, and a digest of that request's body. */
interface Binding {
  notificationId: string;
  /** Absent from a binding made before bodies were recorded; such a binding answers any body as its own. */
  bodyDigest?: string;
}

const bindingValue = (binding: Required<Binding>) => `${binding.notificationId}:${binding.bodyDigest}`;

function parseBinding(value: string): Binding {
  const [notificationId, bodyDigest] = value.split(':');
  return { notificationId: notificationId!, bodyDigest };
}

/**
 * The notification id the key is bound to when a request with it came within 24 hours; a 422 when that request had
 * another body (CONTRACTS §1).
 */
export async function boundNotificationId(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  bodyDigest: string,
): Promise<string | null> {
  const value = await deps.redis.get(bindingKey(deps, projectId, key));
  return value === null ? null : sameRequest(parseBinding(value), bodyDigest);
}

function sameRequest(binding: Binding, bodyDigest: string): string {
  if (binding.bodyDigest !== undefined && binding.bodyDigest !== bodyDigest) throw idempotencyKeyReused();
  return binding.notificationId;
}

/**
 * Binds an Idempotency-Key to a notification id and the request's body for 24 hours and answers the id bound to it,
 * the candidate's for the first request; a racing request with another body gets the 422. Redis holds the binding,
 * and the key expires by itself.
 */
export async function claimIdempotencyKey(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  candidate: Required<Binding>,
): Promise<string> {
  const bound = await claimBinding(
    deps.redis,
    bindingKey(deps, projectId, key),
    bindingValue(candidate),
    idempotencyWindowSeconds,
  );
  return sameRequest(parseBinding(bound), candidate.bodyDigest);
}
