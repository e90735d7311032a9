import { beforeAll } from 'vitest';
import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import { createAppContext, type AppContext } from '../../src/app-context.ts';
import { closeDeps } from '../../src/open-deps.ts';
import { buildApp } from '../../src/app.ts';
import { createProject, type CreatedProject } from '../../src/projects/create-project.ts';
import type { PlanName } from '../../src/plans/plans.ts';
import type { QueueName } from '../../src/infra/queue-names.ts';
import { testConfig } from './test-config.ts';
import { startTestWorkers, type TestWorkers } from './workers.ts';
import { useResource } from './use-resource.ts';
import { listenBacklog } from '../../src/http/listen-backlog.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestIngress {
  baseUrl: string;
  context: AppContext;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  createProject(plan?: PlanName): Promise<CreatedProject>;
  /** As SIGTERM begins in src/server.ts. */
  startDraining(): void;
  close(): Promise<void>;
}

/** The real ingress listening on a loopback port, over the shared Redis and MongoDB-wire servers. */
export async function startIngress(config: Config = testConfig()): Promise<TestIngress> {
  const log = pino({ level: config.logLevel });
  const context = await createAppContext(config, log);
  const app = await buildApp(context, log);
  await app.listen({ host: '127.0.0.1', port: 0, backlog: listenBacklog });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the ingress is not listening on TCP');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    context,
    request: (method, path, options = {}) => sendRequest(baseUrl, method, path, options),
    createProject: (plan = 'starter') =>
      createProject(context.models, { name: `test ${plan}`, plan }, config.credentialsKey),
    startDraining: () => app.startDraining(),
    async close() {
      await app.close();
      await closeDeps(context);
    },
  };
}

export interface IngressFixtureOptions<ProjectName extends string> {
  /** A fresh configuration of the file's own unless given (to share it with a second ingress, or to set an admin token). */
  config?: Config;
  /** Queues whose real workers run in-process beside the ingress. */
  workers?: QueueName[];
  /** The projects the tests use, by the name they use them under, each with its plan; created in this order. */
  projects?: Record<ProjectName, PlanName>;
}

export interface IngressFixture<ProjectName extends string> {
  config: Config;
  ingress: TestIngress;
  projects: Record<ProjectName, CreatedProject>;
}

/**
 * The ingress, the workers of the named queues and the named projects, started before the file's tests and closed
 * after them. Every object handed out is filled in before the tests run, so the file can destructure it at the top.
 */
export function useIngress<ProjectName extends string = never>(
  options: IngressFixtureOptions<ProjectName> & { workers: QueueName[] },
): IngressFixture<ProjectName> & { workers: TestWorkers };
export function useIngress<ProjectName extends string = never>(
  options?: IngressFixtureOptions<ProjectName>,
): IngressFixture<ProjectName>;
export function useIngress<ProjectName extends string>(
  options: IngressFixtureOptions<ProjectName> = {},
): IngressFixture<ProjectName> & { workers?: TestWorkers } {
  const config = options.config ?? testConfig();
  const ingress = useResource(() => startIngress(config));
  const queueNames = options.workers;
  const workers = queueNames && useResource(() => startTestWorkers(config, queueNames));
  const projects = useProjects(() => ingress, options.projects);
  return { config, ingress, workers, projects };
}

/** Projects created before the tests through the ingress `ingress()` answers once it has started; filled in place. */
export function useProjects<ProjectName extends string>(
  ingress: () => TestIngress,
  plans = {} as Record<ProjectName, PlanName>,
): Record<ProjectName, CreatedProject> {
  const projects = {} as Record<ProjectName, CreatedProject>;
  for (const name in plans) projects[name] = {} as CreatedProject;
  beforeAll(async () => {
    for (const name in plans) Object.assign(projects[name], await ingress().createProject(plans[name]));
  });
  return projects;
}

export async function sendRequest<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}
