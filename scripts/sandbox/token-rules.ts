/** What the sandbox answers for a token; the prefixes are CONTRACTS §10 plus `badpayload-` and `throttled-`. */
export type TokenVerdict = 'accept' | 'unregistered' | 'invalid' | 'unavailable' | 'throttled' | 'badpayload';

export function createTokenRules() {
  const attemptsSeen = new Set<string>();
  return {
    verdictFor(gateway: 'fcm' | 'apns', token: string): TokenVerdict {
      if (token.startsWith('unregistered-')) return 'unregistered';
      if (token.startsWith('invalid-')) return 'invalid';
      if (token.startsWith('badpayload-')) return 'badpayload';
      if (token.startsWith('throttled-')) return 'throttled';
      if (token.startsWith('flaky-')) {
        const key = `${gateway}:${token}`;
        if (!attemptsSeen.has(key)) {
          attemptsSeen.add(key);
          return 'unavailable';
        }
      }
      return 'accept';
    },
  };
}
export type TokenRules = ReturnType<typeof createTokenRules>;
