import type { Platform } from '../schemas/platforms.ts';

export type GatewayName = 'fcm' | 'apns' | 'webpush';
/** The gateways that need credentials set by the operator; Web Push signs with the project's own VAPID key. */
export type CredentialedGateway = Exclude<GatewayName, 'webpush'>;

/** A standard Web Push subscription's keys (RFC 8291); its endpoint is the push's token. */
export interface WebPushKeys {
  p256dh: string;
  auth: string;
}

/** A button as rendered for one device (CONTRACTS §14). */
export interface PushButton {
  id: string;
  text: string;
  url?: string;
}

/**
 * The delivery options of CONTRACTS §14 a push carries, each absent when the message did not set it: a push without
 * options goes out exactly as before they existed. Each gateway maps them to its own documented form.
 */
export interface PushOptions {
  ttl?: number;
  priority?: 'high' | 'normal';
  badge?: number;
  sound?: string;
  androidChannelId?: string;
  /** A background data push: no title or body shown. */
  silent?: boolean;
  buttons?: PushButton[];
}

export interface OutgoingPush {
  token: string;
  platform: Platform;
  title: string | null;
  body: string;
  url: string | null;
  imageUrl: string | null;
  data: Record<string, string>;
  /**
   * Pushes with the same collapse id replace one another on the phone (APNs `apns-collapse-id`, FCM Android
   * `collapse_key`, web push `Topic`). The notification id: a push that is sent twice (the gateway accepted it just
   * before a worker was killed, docs/operations.md "Shutdown and crashes") shows once.
   */
  collapseId: string;
  /** Web Push only: the subscription keys the payload is encrypted for. */
  webPushKeys?: WebPushKeys;
  options?: PushOptions;
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
