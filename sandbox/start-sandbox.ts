import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import { sandboxCertificate } from './certificate.ts';
import { createDeliveryLog, type Delivery, type Attempt } from './delivery-log.ts';
import { createTokenRules, type TokenRuleOptions } from './token-rules.ts';
import { answerFcm, fcmSendPath } from './fake-fcm.ts';
import { answerApns, apnsDevicePath } from './fake-apns.ts';
import {
  createFakeWebPush,
  webPushEndpointId,
  webPushSubscriptionsPath,
  type WebPushSubscription,
} from './fake-webpush.ts';
import type { SandboxAnswer, SandboxRequest } from './sandbox-request.ts';

export interface Sandbox {
  port: number;
  deliveries(token?: string): Delivery[];
  attempts(token?: string): Attempt[];
  /** Drops every delivery and attempt logged so far. */
  forget(): void;
  /** What POST /webpush/subscriptions answers, without the request (benchmarks issue thousands). */
  issueWebPushSubscription(prefix?: string): WebPushSubscription;
  close(): Promise<void>;
}

type AnyRequest = IncomingMessage | Http2ServerRequest;
type AnyResponse = ServerResponse | Http2ServerResponse;

/** The first byte of a TLS connection is a handshake record (0x16); anything else is plain HTTP. */
const tlsHandshakeByte = 0x16;

function readBody(request: AnyRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function reply(response: AnyResponse, answer: SandboxAnswer): void {
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
  const headers: Record<string, string | number> = { ...answer.headers, 'content-length': Buffer.byteLength(text) };
  if (answer.body !== undefined) headers['content-type'] = 'application/json; charset=UTF-8';
  (response as ServerResponse).writeHead(answer.status, headers);
  response.end(text);
}

/**
 * One port serves them all: TLS connections reach a server speaking HTTP/2 (APNs, FCM's HTTP/2 transport)
 * and HTTP/1.1 (FCM's legacy transport, Web Push) chosen by ALPN; plain connections reach the inspection endpoints
 * and can ask for Web Push subscriptions.
 */
export async function startSandbox(
  options: { port?: number; host?: string } & TokenRuleOptions = {},
): Promise<Sandbox> {
  const log = createDeliveryLog();
  const rules = createTokenRules(options);
  const webPush = createFakeWebPush(rules, log);

  function inspect(url: URL): SandboxAnswer | undefined {
    const token = url.searchParams.get('token') ?? undefined;
    if (url.pathname === '/deliveries') return { status: 200, body: log.deliveries(token) };
    if (url.pathname === '/attempts') return { status: 200, body: log.attempts(token) };
    if (url.pathname === '/stats') return { status: 200, body: log.stats() };
    return undefined;
  }

  async function handle(request: AnyRequest, response: AnyResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    const bytes = await readBody(request);
    const sandboxRequest: SandboxRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      headers: request.headers,
      body: bytes.toString('utf8'),
      bytes,
    };
    const fcmMatch = fcmSendPath.exec(url.pathname);
    const apnsMatch = apnsDevicePath.exec(url.pathname);
    const webPushId = webPushEndpointId(sandboxRequest);
    const answer = (request.method === 'GET' ? inspect(url) : undefined) ??
      (fcmMatch ? answerFcm(sandboxRequest, fcmMatch[1]!, rules, log) : undefined) ??
      (apnsMatch ? answerApns(sandboxRequest, decodeURIComponent(apnsMatch[1]!), rules, log) : undefined) ??
      (url.pathname === webPushSubscriptionsPath ? webPush.subscribe(sandboxRequest) : undefined) ??
      (webPushId !== undefined ? webPush.push(sandboxRequest, webPushId) : undefined) ?? {
        status: 404,
        body: { error: `no sandbox route for ${request.method} ${url.pathname}` },
      };
    reply(response, answer);
  }

  const onRequest = (request: AnyRequest, response: AnyResponse) => {
    handle(request, response).catch((error: Error) => reply(response, { status: 500, body: { error: error.message } }));
  };
  const tlsServer = createSecureServer(
    { ...sandboxCertificate(), allowHTTP1: true, settings: { maxConcurrentStreams: 1000 } },
    onRequest,
  );
  const plainServer = createHttpServer({ keepAliveTimeout: 60_000 }, onRequest);

  const sockets = new Set<Socket>();
  const front = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // Until its first byte hands it to a server nothing else listens for its errors, and a client that resets before
    // sending anything must not end the sandbox; afterwards the servers' own handling of errors comes first.
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      // A TLS socket wrapping this one first takes what is buffered in it (the chunk put back here), then reads its
      // handle directly: no JS stream stands between the gateway clients and the TLS server.
      if (first[0] === tlsHandshakeByte) tlsServer.emit('connection', socket);
      else {
        plainServer.emit('connection', socket);
        socket.resume();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' }, resolve);
  });
  const address = front.address();
  if (address === null || typeof address === 'string') throw new Error('the sandbox is not listening on TCP');

  return {
    port: address.port,
    deliveries: log.deliveries,
    attempts: log.attempts,
    forget: log.forget,
    issueWebPushSubscription: (prefix) => webPush.issue(`https://127.0.0.1:${address.port}`, prefix),
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
