import { unauthorized } from '../errors.ts';

export function readBearerToken(header: string | undefined): string {
  if (header === undefined || header === '')
    throw unauthorized('Send the API key in the header Authorization: Bearer <API_KEY>.');
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match?.[1]) throw unauthorized('The Authorization header must have the form "Bearer <API_KEY>".');
  return match[1];
}
