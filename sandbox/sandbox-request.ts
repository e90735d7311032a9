import type { IncomingHttpHeaders } from 'node:http';

export interface SandboxRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as sent: Web Push bodies are encrypted bytes, not text. */
  bytes: Buffer;
}

export interface SandboxAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Serialized as JSON; undefined sends an empty body, as APNs does on success. */
  body?: unknown;
}
