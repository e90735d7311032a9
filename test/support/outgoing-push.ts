import type { OutgoingPush } from '../../src/gateways/gateway.ts';

export function outgoingPush(
  token: string,
  platform: OutgoingPush['platform'],
  overrides: Partial<OutgoingPush> = {},
): OutgoingPush {
  return {
    token,
    platform,
    title: 'Spring sale',
    body: 'Everything is 20% off today',
    url: 'https://shop.example.com/sale',
    imageUrl: 'https://cdn.example.com/sale.png',
    data: { campaign: 'spring', notificationId: 'n-1' },
    collapseId: 'n-1',
    ...overrides,
  };
}
