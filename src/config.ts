import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { StartUpError } from './infra/start-up-error.ts';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export type PushGatewayMode = 'sandbox' | 'live';

export interface Config {
  host: string;
  port: number;
  redisUrl: string;
  mongoUrl: string;
  pushGateway: PushGatewayMode;
  sandboxHost: string;
  sandboxPort: number;
  credentialsKey: Buffer;
  /** The contact in every VAPID signature (RFC 8292 `sub`): a mailto: or https: URL push services can reach. */
  vapidSubject: string;
  adminToken: string | undefined;
  logLevel: string;
  queuePrefix: string;
  /** How long PATCH /users/tags waits for the tag-update worker before answering 503 (the change is still applied). */
  tagUpdateTimeoutMs: number;
  /** How long the ingress lets requests in flight finish on SIGTERM before it closes their connections. */
  ingressShutdownGraceMs: number;
  jobRetention: JobRetention;
  /** How long one field of one device may render before its render thread is terminated and the device failed. */
  renderTimeoutMs: number;
  /**
   * How long a journey step runner's claim of travellers holds: a runner killed holding them leaves them to the next
   * claim after this. Longer than any batch's step run, or a slow run is taken over and its step runs twice at once.
   */
  journeyClaimLeaseMs: number;
  /** Render threads per process, started at its first render. */
  renderThreads: number;
  webhooks: WebhookSettings;
}

/** How webhook calls are made and retried (CONTRACTS §17). */
export interface WebhookSettings {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private addresses, and plain http to them, for local use and tests. */
  allowPrivate: boolean;
  /** The first retry's delay; each later one doubles, up to an hour. */
  retryBaseMs: number;
  /** How long an event is retried, and how long an endpoint may fail before it is disabled. */
  retryWindowMs: number;
  /**
   * How long a worker that died holds its slot of an endpoint's jobs in flight: longer than a job's calls can take
   * (maxEventsPerWebhookJob events, callsPerJob at a time, each ended at the 10 s timeout).
   */
  slotLeaseMs: number;
}

/** How long finished jobs stay in Redis, where the dashboard shows them and can replay them. */
export interface JobRetention {
  completedHours: number;
  failedDays: number;
}

const projectRoot = resolve(import.meta.dirname, '..');
export const stateDir = resolve(process.env.STATE_DIR ?? resolve(projectRoot, '.state'));

export function parsePort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartUpError(`${name} must be a port number, got "${raw}"`);
  return port;
}

function parsePositive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new StartUpError(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function parseCount(name: string, fallback: number): number {
  const value = parsePositive(name, fallback);
  if (!Number.isInteger(value)) throw new StartUpError(`${name} must be a whole number, got "${process.env[name]}"`);
  return value;
}

function decodeKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new StartUpError(`${origin} must hold 32 bytes as 64 hex characters or base64`);
  return key;
}

/**
 * Without CREDENTIALS_KEY a single-machine install still has to decrypt tomorrow what it encrypted today,
 * so the key is generated once into the state directory instead of living only in memory.
 */
function loadCredentialsKey(): Buffer {
  const fromEnv = process.env.CREDENTIALS_KEY;
  if (fromEnv) return decodeKey(fromEnv, 'CREDENTIALS_KEY');
  const file = resolve(stateDir, 'credentials.key');
  if (!existsSync(file)) createKeyFileOnce(file);
  return decodeKey(readFileSync(file, 'utf8'), file);
}

/**
 * `npm start` launches every process at once on a fresh state directory, so several may create the key together:
 * each writes a whole key beside it and links it into place, which only the first link wins, and no process can read
 * a file another is still writing.
 */
function createKeyFileOnce(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Safari's push service refuses a localhost subject, so it is refused here rather than on every push. */
function parseVapidSubject(raw: string): string {
  const valid =
    URL.canParse(raw) &&
    ['mailto:', 'https:'].includes(new URL(raw).protocol) &&
    !/^https:\/\/localhost(?:[:/]|$)/i.test(raw);
  if (!valid)
    throw new StartUpError(`VAPID_SUBJECT must be a mailto: or https: URL other than https://localhost, got "${raw}"`);
  return raw;
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(raw: string): string {
  if (!logLevels.includes(raw))
    throw new StartUpError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${raw}"`);
  return raw;
}

export function loadConfig(): Config {
  const pushGateway = process.env.PUSH_GATEWAY ?? 'sandbox';
  if (pushGateway !== 'sandbox' && pushGateway !== 'live')
    throw new StartUpError(`PUSH_GATEWAY must be "sandbox" or "live", got "${pushGateway}"`);
  return {
    host: process.env.HOST ?? '0.0.0.0',
    port: parsePort('PORT', 3000),
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    mongoUrl: process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/pushengine',
    pushGateway,
    sandboxHost: process.env.SANDBOX_HOST || '127.0.0.1',
    sandboxPort: parsePort('SANDBOX_PORT', 4100),
    credentialsKey: loadCredentialsKey(),
    vapidSubject: parseVapidSubject(process.env.VAPID_SUBJECT || 'mailto:push@example.com'),
    adminToken: process.env.ADMIN_TOKEN || undefined,
    logLevel: parseLogLevel(process.env.LOG_LEVEL || 'info'),
    queuePrefix: process.env.QUEUE_PREFIX ?? 'push',
    tagUpdateTimeoutMs: parsePositive('TAG_UPDATE_TIMEOUT_MS', 10_000),
    ingressShutdownGraceMs: parsePositive('INGRESS_SHUTDOWN_GRACE_MS', 10_000),
    jobRetention: {
      completedHours: parsePositive('KEEP_COMPLETED_JOBS_HOURS', 24),
      failedDays: parsePositive('KEEP_FAILED_JOBS_DAYS', 14),
    },
    webhooks: {
      allowPrivate: process.env.WEBHOOKS_ALLOW_PRIVATE === 'true',
      retryBaseMs: parsePositive('WEBHOOK_RETRY_BASE_MS', 5000),
      retryWindowMs: parsePositive('WEBHOOK_RETRY_WINDOW_MS', 24 * 3600 * 1000),
      slotLeaseMs: parsePositive('WEBHOOK_SLOT_LEASE_MS', 60_000),
    },
    renderTimeoutMs: parsePositive('RENDER_TIMEOUT_MS', 1000),
    renderThreads: parseCount('RENDER_THREADS', 2),
    journeyClaimLeaseMs: parsePositive('JOURNEY_CLAIM_LEASE_MS', 60_000),
  };
}
