import http2, { type ServerHttp2Stream } from 'node:http2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Credential } from 'firebase-admin/app';
import { createFcmGateway } from '../../src/gateways/fcm/fcm-gateway.ts';
import { makeSelfSignedCertificate } from '../../sandbox/certificate.ts';
import { outgoingPush } from '../support/outgoing-push.ts';

/**
 * Live, firebase-admin sends over its own HTTP/2 session to fcm.googleapis.com, which the sandbox (reached over
 * HTTP/1.1 through an agent) never exercises. Here that session is pointed at a local HTTP/2 server that answers some
 * messages and then drops the connection, as a GOAWAY or a reset from Google's front end would.
 */
const credential: Credential = { getAccessToken: async () => ({ access_token: 'token', expires_in: 3600 }) };

/** Points firebase-admin's HTTP/2 session for fcm.googleapis.com at a local port. */
function redirectFcmTo(port: number): void {
  const connect = http2.connect.bind(http2);
  vi.spyOn(http2, 'connect').mockImplementation(((_authority: string, options: http2.SecureClientSessionOptions) => {
    const session = connect(`https://127.0.0.1:${port}`, { ...options, rejectUnauthorized: false });
    // firebase-admin sends the pseudo-header :scheme as "https:", which Google's front end takes and Node's refuses.
    const request = session.request.bind(session);
    session.request = (headers, requestOptions) => request({ ...headers, ':scheme': 'https' }, requestOptions);
    return session;
  }) as typeof http2.connect);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('FCM over the live HTTP/2 transport', () => {
  it('counts the messages FCM took before the session failed as sent, and retries the rest', async () => {
    const answered: string[] = [];
    let answersClosed = 0;
    const held: ServerHttp2Stream[] = [];
    const dropWhenReady = () => {
      // Once the three answers are out and the other three requests are in, the connection drops under them.
      if (answersClosed === 3 && held.length === 3) held[0]!.session?.goaway(http2.constants.NGHTTP2_INTERNAL_ERROR);
    };
    const server = http2.createSecureServer(makeSelfSignedCertificate());
    server.on('stream', (stream) => {
      let body = '';
      stream.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      stream.on('error', () => undefined);
      stream.on('end', () => {
        const token = (JSON.parse(body) as { message: { token: string } }).message.token;
        if (answered.length < 3) {
          answered.push(token);
          stream.on('close', () => {
            answersClosed += 1;
            dropWhenReady();
          });
          stream.respond({ ':status': 200, 'content-type': 'application/json' });
          stream.end(JSON.stringify({ name: `projects/p/messages/${token}` }));
          return;
        }
        held.push(stream);
        dropWhenReady();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    redirectFcmTo(port);
    const fcm = createFcmGateway({ appOptions: { projectId: 'p', credential }, legacyHttpTransport: false });
    try {
      const tokens = Array.from({ length: 6 }, (_, index) => `session-${index}`);
      const outcomes = await fcm.send(tokens.map((token) => outgoingPush(token, 'android')));
      expect(answered).toHaveLength(3);
      for (const [index, token] of tokens.entries())
        expect(outcomes[index], token).toMatchObject({ kind: answered.includes(token) ? 'sent' : 'retry' });
    } finally {
      await fcm.close();
      server.close();
    }
  });

  it('retries every message when the session cannot even open (the connection refused)', async () => {
    const closed = http2.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    redirectFcmTo(port);
    const fcm = createFcmGateway({ appOptions: { projectId: 'p', credential }, legacyHttpTransport: false });
    try {
      const outcomes = await fcm.send([outgoingPush('refused-1', 'android'), outgoingPush('refused-2', 'android')]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry', 'retry']);
    } finally {
      await fcm.close();
    }
  });
});
