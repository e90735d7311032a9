import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors.ts';
import { letSdkPagesRead } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on, every request is answered 503 and every answer closes its connection (the ingress's SIGTERM). */
    startDraining(): void;
  }
}

/**
 * While the ingress drains, a request that still arrives on an open connection gets a 503 in the error format, which
 * a client retries elsewhere, rather than work started while its Redis and MongoDB connections are being closed; and
 * every answer closes its connection, since a keep-alive connection would hold close() open until its idle timeout.
 */
export function installDraining(app: FastifyInstance): void {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    letSdkPagesRead(request, reply);
    throw unavailable('This server is shutting down; nothing was accepted. Retry shortly.');
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
}
