import { createHash } from 'node:crypto';
import type { SandboxGateway } from './delivery-log.ts';

/** What the sandbox answers for a token; the prefixes are CONTRACTS §10 plus `badpayload-` and `throttled-`. */
export type TokenVerdict = 'accept' | 'unregistered' | 'invalid' | 'unavailable' | 'throttled' | 'badpayload';

export interface TokenRuleOptions {
  /** Share of otherwise accepted pushes answered 503 (0 to 1); 0 keeps the CONTRACTS §10 behaviour. */
  failureRate?: number;
  /** Makes the 503s reproducible: the same seed refuses the same attempts of the same tokens. */
  seed?: number;
}

/**
 * Whether the n-th attempt of a token is refused, from a hash of (seed, gateway, token, n) rather than a random
 * stream, so that the answer does not depend on the order in which concurrent requests arrive.
 */
function refusesAttempt(seed: number, key: string, attempt: number, failureRate: number): boolean {
  const digest = createHash('sha256').update(`${seed}:${key}:${attempt}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32 < failureRate;
}

export function createTokenRules(options: TokenRuleOptions = {}) {
  const failureRate = options.failureRate ?? 0;
  const seed = options.seed ?? 0;
  const attemptsSeen = new Set<string>();
  const attemptCounts = new Map<string, number>();
  return {
    verdictFor(gateway: SandboxGateway, token: string): TokenVerdict {
      if (token.startsWith('unregistered-')) return 'unregistered';
      if (token.startsWith('invalid-')) return 'invalid';
      if (token.startsWith('badpayload-')) return 'badpayload';
      if (token.startsWith('throttled-')) return 'throttled';
      const key = `${gateway}:${token}`;
      if (token.startsWith('flaky-')) {
        if (!attemptsSeen.has(key)) {
          attemptsSeen.add(key);
          return 'unavailable';
        }
      }
      if (failureRate > 0) {
        const attempt = attemptCounts.get(key) ?? 0;
        attemptCounts.set(key, attempt + 1);
        if (refusesAttempt(seed, key, attempt, failureRate)) return 'unavailable';
      }
      return 'accept';
    },
  };
}
export type TokenRules = ReturnType<typeof createTokenRules>;
