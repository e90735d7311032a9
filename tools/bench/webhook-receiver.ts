import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  type: string;
  timestamp: string;
  data: { deviceId?: string };
}

/**
 * A webhook receiver on loopback answering 200, handing each event, the time it arrived and the path it was POSTed to
 * (an endpoint's URL may add one to `url`) to `onEvent`.
 */
export async function startBenchReceiver(onEvent: (event: ReceivedEvent, arrivedAt: number, path: string) => void) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      onEvent(JSON.parse(Buffer.concat(chunks).toString()) as ReceivedEvent, Date.now(), request.url ?? '/');
      response.end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
