import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import { closeAppContext, createAppContext, type AppContext } from '../../src/app-context.ts';
import { buildApp } from '../../src/app.ts';
import { createProject, type CreatedProject } from '../../src/projects/create-project.ts';
import type { PlanName } from '../../src/plans/plans.ts';
import { testConfig } from './test-config.ts';

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
  close(): Promise<void>;
}

/** The real ingress listening on a loopback port, over the shared Redis and MongoDB-wire servers. */
export async function startIngress(config: Config = testConfig()): Promise<TestIngress> {
  const log = pino({ level: config.logLevel });
  const context = await createAppContext(config, log);
  const app = await buildApp(context, log);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the ingress is not listening on TCP');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    context,
    request: (method, path, options = {}) => sendRequest(baseUrl, method, path, options),
    createProject: (plan = 'starter') => createProject(context.models, { name: `test ${plan}`, plan }),
    async close() {
      await app.close();
      await closeAppContext(context);
    },
  };
}

export async function sendRequest<T>(baseUrl: string, method: string, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
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
