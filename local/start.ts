import { resolve } from 'node:path';
import { parsePort, stateDir } from '../src/config.ts';
import { defaultMongoPort, defaultRedisPort, provideServices } from './services/provide-services.ts';
import { withDatabase } from '../src/infra/mongo-url.ts';
import { readProcfile } from './start/procfile.ts';
import { superviseProcesses } from './start/supervise.ts';
import { lineFormatter, wantsReadableLogs } from './start/log-lines.ts';
import { isSecondPress } from '../src/infra/stop-signals.ts';

const root = resolve(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${'start'.padEnd(20)}| ${line}\n`);
// Decided before anything starts: a LOG_FORMAT it does not know stops npm start with nothing left running.
const atTerminal = process.stdout.isTTY === true;
const formatLine = lineFormatter(wantsReadableLogs(process.env, atTerminal), atTerminal);

const services = await provideServices({
  stateDir: resolve(stateDir, 'services'),
  log,
  persistent: true,
  ports: { redis: parsePort('REDIS_PORT', defaultRedisPort), mongodb: parsePort('MONGODB_PORT', defaultMongoPort) },
  adoptRunning: true,
});
const env = {
  ...process.env,
  REDIS_URL: services.redisUrl,
  MONGODB_URL: process.env.MONGODB_URL || withDatabase(services.mongoUrl, 'pushengine'),
};
// The sandbox gateways are a local stand-in for FCM and APNs, not part of a deployment, so they are not in the Procfile.
const sandboxEntries =
  (process.env.PUSH_GATEWAY ?? 'sandbox') === 'sandbox' ? [{ name: 'sandbox', command: 'node sandbox/main.ts' }] : [];
const entries = [...sandboxEntries, ...readProcfile(resolve(root, 'Procfile'))];
const supervisor = superviseProcesses(entries, env, root, formatLine);
log(`running ${entries.map((entry) => entry.name).join(', ')}`);
const baseUrl = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
log(`the API answers on ${baseUrl} (Ctrl-C stops everything)`);
log(
  `the console is at ${baseUrl}/console: sign in with a project's server API key (npm run project:create -- --name "My shop" prints one)${process.env.ADMIN_TOKEN ? ', or ADMIN_TOKEN' : ''}`,
);

let shutDownAt: number | undefined;
let exitCode = 0;
async function shutDown(reason: string, code: number): Promise<void> {
  if (shutDownAt !== undefined) return;
  shutDownAt = Date.now();
  exitCode = code;
  log(`${reason}; stopping (Ctrl-C again stops without waiting for jobs and requests in flight)`);
  await supervisor.stopAll();
  await services.stop();
  process.exit(exitCode);
}
process.on('SIGINT', () => {
  if (shutDownAt === undefined) return void shutDown('interrupted', 0);
  if (!isSecondPress(shutDownAt)) return;
  // At a terminal the processes hear this Ctrl-C too; signalled alone, npm start passes it on.
  log('interrupted again; the processes exit without waiting');
  exitCode = 130;
  supervisor.interruptAll();
});
process.on('SIGTERM', () => void shutDown('terminated', 0));
// The terminal closed: the servers, in groups of their own, would not hear of it.
process.on('SIGHUP', () => void shutDown('hung up', 0));
void supervisor.firstExit.then((reason) => shutDown(reason, 1));
