import type { FastifySchema } from 'fastify';

type SwaggerTransform = (input: { schema: FastifySchema; url: string }) => { schema: FastifySchema; url: string };

const text = { type: 'string' };

/**
 * A body or answer that is a file goes past Fastify's schemas (a stream is neither parsed nor serialized), so its
 * media types are written into the OpenAPI document only: the typed client reads from them what to send and to read.
 */
export function documentFiles(files: {
  /** The media types a request body may be sent in. */
  upload?: readonly string[];
  /** The media types of a 200 that is a file; a JSON 200 the route declares stays beside them. */
  answer?: readonly string[];
}): SwaggerTransform {
  return ({ schema, url }) => {
    const documented: Record<string, unknown> = { ...schema };
    if (files.upload) Object.assign(documented, { body: { ...text, format: 'binary' }, consumes: files.upload });
    if (files.answer) {
      const responses = { ...(schema.response as Record<string, object> | undefined) };
      const json = responses[200];
      const content = Object.fromEntries(files.answer.map((type) => [type.split(';')[0]!, { schema: text }]));
      responses[200] = {
        description: 'Default Response',
        content: json === undefined ? content : { 'application/json': { schema: json }, ...content },
      };
      documented.response = responses;
    }
    return { schema: documented as FastifySchema, url };
  };
}
