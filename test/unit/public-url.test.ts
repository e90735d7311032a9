import { describe, expect, it } from 'vitest';
import { publicHttpsUrlProblem } from '../../src/net/public-url.ts';

/** The rule for URLs the service calls (Web Push endpoints): https, to a public address, judged on the host as written. */
const live = (url: string) => publicHttpsUrlProblem(url, { allowPrivate: false });
const sandboxed = (url: string) => publicHttpsUrlProblem(url, { allowPrivate: true });

describe('publicHttpsUrlProblem', () => {
  it.each([
    ['https://169.254.169.254/', 'must be on a globally routable address; 169.254.169.254 is not one'],
    ['https://2130706433:5999/', 'must be on a globally routable address; 127.0.0.1 is not one'],
    ['https://0177.0.0.1/', 'must be on a globally routable address; 127.0.0.1 is not one'],
    ['https://[::ffff:127.0.0.1]/', 'must be on a globally routable address; ::ffff:7f00:1 is not one'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'must be on a globally routable address; 64:ff9b::a9fe:a9fe is not one'],
    ['https://LOCALHOST./x', 'must be on a public host; localhost is a local name'],
    ['https://router.home.arpa/x', 'must be on a public host; router.home.arpa is a local name'],
    ['https://metadata/x', 'must be on a public host; metadata is a local name'],
    ['https://127.0.0.1;x/x', 'must name its host by a DNS name or an IP address; 127.0.0.1;x is neither'],
    ['https://a_b.example/x', 'must name its host by a DNS name or an IP address; a_b.example is neither'],
    ['https://u@push.example/x', 'must not carry a user name or password'],
    ['http://push.example/x', 'must be an https:// URL'],
    ['https://push.example:99999/x', 'must be an https:// URL'],
    ['not a url', 'must be an https:// URL'],
  ])('refuses %s', (url, problem) => {
    expect(live(url)).toBe(problem);
  });

  it.each([
    'https://fcm.googleapis.com/fcm/send/x',
    'https://web.push.apple.com/x',
    'https://xn--bcher-kva.example/x',
    'https://8.8.8.8/x',
    'https://[2001:4860:4860::8888]/x',
  ])('takes %s', (url) => {
    expect(live(url)).toBeNull();
  });

  it('takes addresses and names inside the network with allowPrivate, but still only well-formed https URLs', () => {
    for (const url of ['https://127.0.0.1:4100/webpush/push/a', 'https://sandbox:4100/x', 'https://[::1]/x'])
      expect(sandboxed(url)).toBeNull();
    expect(sandboxed('http://127.0.0.1:4100/x')).toBe('must be an https:// URL');
    expect(sandboxed('https://127.0.0.1;x/x')).not.toBeNull();
  });
});
