/**
 * A customer's webhook receiver, in a process of its own as a customer's would be (on the benchmark's event loop it
 * would slow the sandbox gateways beside it): counts the events of each type, and the devices the device.unsubscribed
 * events name by the path they were POSTed to. GET /counts answers both; the first line of stdout is its origin.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBenchReceiver } from './webhook-receiver.ts';

const counts: Record<string, number> = {};
const unsubscribed = new Map<string, Set<string>>();
const receiver = await startBenchReceiver((event, _arrivedAt, path) => {
  counts[event.type] = (counts[event.type] ?? 0) + 1;
  if (event.type !== 'device.unsubscribed' || !event.data.deviceId) return;
  const devices = unsubscribed.get(path) ?? new Set<string>();
  devices.add(event.data.deviceId);
  unsubscribed.set(path, devices);
});
const tally = createServer((_request, response) => {
  const devices = Object.fromEntries([...unsubscribed].map(([path, ids]) => [path, ids.size]));
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ counts, unsubscribed: devices }));
});
await new Promise<void>((listening) => tally.listen(0, '127.0.0.1', listening));
process.stdout.write(`${receiver.url} http://127.0.0.1:${(tally.address() as AddressInfo).port}/counts\n`);
process.on('SIGTERM', () => process.exit(0));
