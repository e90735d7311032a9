import type { PushGateway } from './gateway.ts';

/** A gateway that holds connections; the provider closes it when it drops the client. */
export interface ClosableGateway extends PushGateway {
  close(): Promise<void>;
}
