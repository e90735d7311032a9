export type SandboxGateway = 'fcm' | 'apns' | 'webpush';

export interface Delivery {
  gateway: SandboxGateway;
  token: string;
  payload: unknown;
  /** APNs `apns-collapse-id` and Web Push `Topic` headers (FCM's collapse key is in the payload). */
  collapseId?: string;
  /** The request headers that carry message options (APNs apns-*, Web Push TTL, Urgency, Topic); {} for FCM. */
  headers: Record<string, string>;
  receivedAt: string;
}

export interface Attempt {
  gateway: SandboxGateway;
  token: string;
  status: number;
  reason: string | null;
  receivedAt: string;
}

/** In memory and indexed by token, so recording stays cheap at thousands of pushes a second. */
export function createDeliveryLog() {
  const deliveries: Delivery[] = [];
  const deliveriesByToken = new Map<string, Delivery[]>();
  const attempts: Attempt[] = [];
  const attemptsByToken = new Map<string, Attempt[]>();

  function append<T>(all: T[], byToken: Map<string, T[]>, token: string, item: T): void {
    all.push(item);
    const list = byToken.get(token);
    if (list === undefined) byToken.set(token, [item]);
    else list.push(item);
  }

  return {
    recordAttempt(
      gateway: SandboxGateway,
      token: string,
      status: number,
      reason: string | null,
      payload: unknown,
      collapseId?: string,
      headers: Record<string, string> = {},
    ): void {
      const receivedAt = new Date().toISOString();
      append(attempts, attemptsByToken, token, { gateway, token, status, reason, receivedAt });
      // Web Push services answer 201 Created.
      if (status >= 200 && status < 300)
        append(deliveries, deliveriesByToken, token, {
          gateway,
          token,
          payload,
          ...(collapseId !== undefined && { collapseId }),
          headers,
          receivedAt,
        });
    },
    deliveries: (token?: string): Delivery[] =>
      token === undefined ? deliveries : (deliveriesByToken.get(token) ?? []),
    attempts: (token?: string): Attempt[] => (token === undefined ? attempts : (attemptsByToken.get(token) ?? [])),
    /** Drops every delivery and attempt logged so far (a benchmark of many sends keeps only the send it measures). */
    forget(): void {
      deliveries.length = 0;
      deliveriesByToken.clear();
      attempts.length = 0;
      attemptsByToken.clear();
    },
    stats: () => ({
      deliveries: deliveries.length,
      attempts: attempts.length,
      firstReceivedAt: deliveries[0]?.receivedAt ?? null,
      lastReceivedAt: deliveries.at(-1)?.receivedAt ?? null,
    }),
  };
}
export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
