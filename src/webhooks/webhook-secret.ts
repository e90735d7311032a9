import { randomBytes } from 'node:crypto';

/** A signing secret as the Standard Webhooks specification writes it: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
