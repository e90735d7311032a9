import type { FastifyInstance } from 'fastify';

/**
 * Browsers take every answer for the type it declares: a JSON answer, which may echo a customer's text, is never
 * sniffed into HTML or script.
 */
export const noSniffHeader = { name: 'x-content-type-options', value: 'nosniff' } as const;

/** On every answer, set before any route, hook or refusal runs, so that errors and unknown routes carry it too. */
export function installNoSniff(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header(noSniffHeader.name, noSniffHeader.value);
    done();
  });
}
