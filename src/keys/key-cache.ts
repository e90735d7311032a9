import type { Deps } from '../deps.ts';
import type { RedisClient } from '../infra/redis.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { Models } from '../models/index.ts';
import type { PlanName } from '../plans/plans.ts';
import type { KeyKind } from './api-keys.ts';

export interface KeyOwner {
  projectId: string;
  plan: PlanName;
  kind: KeyKind;
}

const knownKeySeconds = 60;
const unknownKeySeconds = 10;
const unknownMarker = '-';

/**
 * Resolves a key hash to its project. The cache lives in Redis, not in process memory, so that rotating keys
 * (which marks the old hashes revoked in it) revokes the old ones at once on every ingress process.
 */
export class KeyCache {
  private readonly redis: RedisClient;
  private readonly models: Models;
  private readonly prefix: string;

  constructor({ redis, models, config }: Pick<Deps, 'redis' | 'models' | 'config'>) {
    this.redis = redis;
    this.models = models;
    this.prefix = config.queuePrefix;
  }

  private cacheKey(hash: string): string {
    return redisKeys.apiKey(this.prefix, hash);
  }

  async lookup(hash: string): Promise<KeyOwner | null> {
    const cached = await this.redis.get(this.cacheKey(hash));
    if (cached === unknownMarker) return null;
    if (cached) return JSON.parse(cached) as KeyOwner;
    const project = await this.models.Project.findOne(
      { $or: [{ serverKeyHash: hash }, { clientKeyHash: hash }] },
      { plan: 1, serverKeyHash: 1 },
    ).lean();
    const owner: KeyOwner | null = project
      ? { projectId: project._id, plan: project.plan, kind: project.serverKeyHash === hash ? 'server' : 'client' }
      : null;
    await this.remember(hash, owner);
    return owner;
  }

  /**
   * Caches what a read of the projects found, unless the hash is cached already: a read made just before a rotation
   * can answer after it, and must not bring back a hash the rotation revoked.
   */
  async remember(hash: string, owner: KeyOwner | null): Promise<void> {
    await this.redis.set(
      this.cacheKey(hash),
      owner ? JSON.stringify(owner) : unknownMarker,
      'EX',
      owner ? knownKeySeconds : unknownKeySeconds,
      'NX',
    );
  }

  /** Caches the hashes as unknown, for as long as a read made before could still try to cache them as known. */
  async revoke(hashes: string[]): Promise<void> {
    // One SET per key: on a Redis Cluster the keys lie in different slots, which one command may not span.
    await Promise.all(hashes.map((hash) => this.redis.set(this.cacheKey(hash), unknownMarker, 'EX', knownKeySeconds)));
  }
}
