import { expect, it } from 'vitest';
import { webhookRetryDelay } from '../../src/queues/webhook.ts';

it('retries a webhook after 5 s, then at doubling intervals of at most an hour, lasting past 24 hours in 1000 attempts', () => {
  const delays = Array.from({ length: 14 }, (_, index) => webhookRetryDelay(index + 1, 5000) / 1000);
  expect(delays).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600, 3600, 3600]);
  let total = 0;
  let attempts = 1;
  while (total < 24 * 3600 * 1000) total += webhookRetryDelay(attempts++, 5000);
  expect(attempts).toBeLessThan(1000);
});
