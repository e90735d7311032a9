import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed. */
  event: { type: string; timestamp: string; data: any };
  /** Date.now() when the call's body had arrived. */
  receivedAt: number;
}

/** A customer's webhook receiver on loopback: it keeps every call and answers what `answer` says (200 unless told). */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  answer: (call: ReceivedWebhook) => number;
  ofType(type: string): ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    ofType: (type) => receiver.received.filter((call) => call.event.type === type),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const call = { headers: request.headers, body, event: JSON.parse(body), receivedAt: Date.now() };
      receiver.received.push(call);
      response.statusCode = receiver.answer(call);
      response.end();
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = receiver.close;
  receiver.close = () => {
    server.closeAllConnections();
    return close();
  };
  return receiver;
}
