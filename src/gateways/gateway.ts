export type GatewayName = 'fcm' | 'apns';

export interface OutgoingPush {
  token: string;
  platform: 'android' | 'ios' | 'web';
  title: string | null;
  body: string;
  url: string | null;
  imageUrl: string | null;
  data: Record<string, string>;
}

export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'unsubscribed'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; reason: string; retryAfterMs?: number };

export interface PushGateway {
  /** Answers one outcome per push, in the same order as the input. */
  send(pushes: OutgoingPush[]): Promise<PushOutcome[]>;
}

export interface GatewayProvider {
  gatewayFor(projectId: string, gateway: GatewayName): Promise<PushGateway>;
  close(): Promise<void>;
}
