import { publicHttpsUrlProblem } from '../net/public-url.ts';

/**
 * Why a webhook URL may not be called, or null: https to a public host, by the rule Web Push endpoints keep. With
 * allowPrivate (WEBHOOKS_ALLOW_PRIVATE, local use) private hosts are taken too, over plain http as well, since a
 * receiver on a developer's machine rarely has a certificate.
 */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | null {
  const asHttps = allowPrivate && /^http:/i.test(url) ? url.replace(/^http:/i, 'https:') : url;
  return publicHttpsUrlProblem(asHttps, { allowPrivate });
}
