import { loadConfig } from './config.ts';
import { createAppContext } from './app-context.ts';
import { closeDeps } from './open-deps.ts';
import { buildApp } from './app.ts';
import { listenBacklog } from './http/listen-backlog.ts';
import { createLogger } from './infra/logger.ts';
import { listenError, startProcess } from './infra/start-up-error.ts';
import { onStopSignals } from './infra/stop-signals.ts';

await startProcess('ingress', async () => {
  const config = loadConfig();
  const log = createLogger(config, 'ingress');
  const context = await createAppContext(config, log);
  const app = await buildApp(context, log);

  await app.listen({ host: config.host, port: config.port, backlog: listenBacklog }).catch((error: unknown) => {
    throw listenError(error, 'PORT', config.port);
  });

  /**
   * SIGTERM: stop listening (new connections are refused), let the requests in flight finish, and only then close
   * Redis and MongoDB, which those requests still use.
   */
  onStopSignals(log, (signal) => {
    app.startDraining();
    log.info({ signal }, 'draining in-flight requests (Ctrl-C again exits at once)');
    // A client that stops sending mid-request would hold close() for ever: past the grace, its connection goes.
    setTimeout(() => {
      log.warn({ graceMs: config.ingressShutdownGraceMs }, 'requests still in flight; closing their connections');
      app.server.closeAllConnections();
    }, config.ingressShutdownGraceMs).unref();
    void app
      .close()
      .then(() => closeDeps(context))
      .then(() => process.exit(0));
  });
});
