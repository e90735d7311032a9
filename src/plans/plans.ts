export const planNames = ['starter', 'team', 'business'] as const;
export type PlanName = (typeof planNames)[number];

export interface PlanLimits {
  /** Server API requests per rolling minute per project; null means unlimited. */
  requestsPerMinute: number | null;
  /** Largest targetIds array for targetType userId or device. */
  maxDirectTargets: number;
}

export const planLimits: Record<PlanName, PlanLimits> = {
  starter: { requestsPerMinute: 100, maxDirectTargets: 1 },
  team: { requestsPerMinute: null, maxDirectTargets: 100 },
  business: { requestsPerMinute: null, maxDirectTargets: 100 },
};

export const maxSegmentTargets = 5;

export function isPlanName(value: string): value is PlanName {
  return (planNames as readonly string[]).includes(value);
}
