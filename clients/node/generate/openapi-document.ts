import { pino } from 'pino';
import { buildApp } from '../../../src/app.ts';
import type { AppContext } from '../../../src/app-context.ts';
import type { Config } from '../../../src/config.ts';

/**
 * Registering routes hands the context's stores to the handlers and reads one setting (whether webhook URLs may be
 * private, which only changes error messages). Any call into the context would mean the document depended on a
 * running service, so every call throws; reads give more of the same.
 */
function inert(name: string): never {
  return new Proxy(() => {}, {
    get: (_target, key) => (key === 'then' ? undefined : inert(`${name}.${String(key)}`)),
    apply() {
      throw new Error(`building the OpenAPI document called ${name}`);
    },
  }) as never;
}

function inertContext(): AppContext {
  const config = { webhooks: { allowPrivate: false } } as Config;
  return new Proxy(inert('context'), { get: (target, key) => (key === 'config' ? config : Reflect.get(target, key)) });
}

/** The document `/openapi.json` serves, built from the app's routes without Redis, MongoDB or a listening server. */
export async function buildOpenApiDocument(): Promise<object> {
  const app = await buildApp(inertContext(), pino({ level: 'silent' }));
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}
