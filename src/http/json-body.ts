import type { FastifyInstance } from 'fastify';
import { ApiError, invalidFields, invalidRequest } from '../errors.ts';
import { escapePointer } from '../schemas/validation.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** A \u escape of a UTF-16 surrogate: valid UTF-8 cannot carry one, so only such an escape can leave one unpaired. */
const surrogateEscape = /\\u[dD][89a-fA-F]/;
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)/i;

const unsupportedBody = (why: string) =>
  new ApiError(415, 'unsupported_media_type', `${why}; send the body as uncompressed UTF-8 JSON.`);

/**
 * Where the first string or key failing `refuses` sits (a JSON pointer), or null. Walked with a stack, not recursion:
 * a body may nest 100,000 levels.
 */
function refusedPath(
  root: unknown,
  refuses: { key: (key: string, value: unknown) => boolean; text: (text: string) => boolean },
): string | null {
  const pending: Array<[unknown, string]> = [[root, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (refuses.text(value)) return path;
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) pending.push([item, `${path}/${index}`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const itemPath = `${path}/${escapePointer(key.toWellFormed())}`;
        if (refuses.key(key, item)) return itemPath;
        pending.push([item, itemPath]);
      }
    }
  }
  return null;
}

const loneSurrogate = {
  key: (key: string) => !key.isWellFormed(),
  text: (text: string) => !text.isWellFormed(),
};

/** What Fastify's parser refuses so that nothing reaches a prototype: __proto__, and constructor holding prototype. */
const prototypeKey = {
  key: (key: string, value: unknown) =>
    key === '__proto__' ||
    (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype')),
  text: () => false,
};

/** The path of the key that made the default parser refuse a body that is otherwise JSON, or null. */
function prototypeKeyPath(text: string): string | null {
  try {
    // JSON.parse makes every key an own property, __proto__ included: nothing reaches a prototype here.
    return refusedPath(JSON.parse(text), prototypeKey);
  } catch {
    return null;
  }
}

/**
 * JSON bodies are read as bytes and refused unless they are UTF-8 and their strings well-formed Unicode. Fastify's
 * own parser decodes a stray byte or takes a lone surrogate escape as it comes, and storing either turns it into
 * U+FFFD: two different tag keys or user ids became one, and a request changed another user's devices.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // Many HTTP clients label every request JSON: a route that takes no body (a DELETE, a cancel) takes none so labelled.
    if ((body as Buffer).length === 0 && request.routeOptions.schema?.body === undefined) return done(null, undefined);
    const encoding = request.headers['content-encoding'] ?? '';
    const codings = encoding.split(',').map((coding) => coding.trim().toLowerCase());
    if (codings.some((coding) => coding !== '' && coding !== 'identity'))
      return done(unsupportedBody(`Content-Encoding ${encoding} is not supported`), undefined);
    const charset = charsetParameter.exec(request.headers['content-type'] ?? '')?.[1];
    // US-ASCII text is UTF-8 text, read as such.
    if (charset !== undefined && !/^(utf-?8|us-ascii)$/i.test(charset))
      return done(unsupportedBody(`charset ${charset} is not supported`), undefined);
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      return done(invalidRequest('The body is not valid UTF-8.'), undefined);
    }
    parseJson(request, text, (error, value) => {
      if (error) {
        // Read whatever the spelling: "\u005f_proto__" is the same key.
        const keyPath = prototypeKeyPath(text);
        if (keyPath === null) return done(error, undefined);
        return done(
          invalidFields([
            { path: keyPath, message: 'is a key no object here may have: __proto__, or constructor holding prototype' },
          ]),
          undefined,
        );
      }
      const path = surrogateEscape.test(text) ? refusedPath(value, loneSurrogate) : null;
      if (path === null) return done(null, value);
      done(
        invalidFields([
          { path, message: 'holds a lone UTF-16 surrogate escape (\\ud800 to \\udfff unpaired); text must be Unicode' },
        ]),
        undefined,
      );
    });
  });
}
