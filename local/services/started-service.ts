/** One running Redis or MongoDB-wire server, however it was obtained. */
export interface StartedService {
  url: string;
  /** Human text for the log, e.g. "local redis-server 7.0.15 on 127.0.0.1:41234". */
  description: string;
  /** Local child processes we own (empty for env URLs and containers). */
  pids: number[];
  stop(): Promise<void>;
}

export interface LocalServiceOptions {
  stateDir: string;
  log: (line: string) => void;
  persistent: boolean;
  /** A fixed port (the one other commands expect by default) instead of any free one. */
  port?: number;
}
