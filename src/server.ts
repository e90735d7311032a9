import { loadConfig } from './config.ts';
import { createAppContext, closeAppContext } from './app-context.ts';
import { buildApp } from './app.ts';
import { createLogger } from './infra/logger.ts';

const config = loadConfig();
const log = createLogger(config, 'ingress');
const context = await createAppContext(config, log);
const app = await buildApp(context, log);
await app.listen({ host: config.host, port: config.port });

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'draining in-flight requests');
    void app
      .close()
      .then(() => closeAppContext(context))
      .then(() => process.exit(0));
  });
}
