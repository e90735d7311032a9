import type { Platform } from '../schemas/platforms.ts';

/**
 * The target query's clause for CONTRACTS §14 `platforms` (and `silent`, which leaves out web): the query itself
 * selects the devices of those platforms, so no other device is read; none when every platform is targeted.
 */
export function platformClause(platforms: Platform[] | undefined): { platform?: { $in: Platform[] } } {
  return platforms === undefined ? {} : { platform: { $in: platforms } };
}
