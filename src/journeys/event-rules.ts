import { isDeepStrictEqual } from 'node:util';
import type { EntryEvent } from '../schemas/events.ts';
import type { EventDataCondition } from '../schemas/event-conditions.ts';
import { toStoredData } from '../conditions/event-data.ts';
import { matchesDataConditions } from '../conditions/match-data.ts';

/** An entry, exit or waitForEvent rule: an event type, conditions on its data, and fields equal to the entry event's. */
export interface EventRule {
  event: string;
  where?: EventDataCondition[];
  sameAs?: string[];
}

export function matchesRule(rule: EventRule, event: EntryEvent, entryEvent?: EntryEvent): boolean {
  if (rule.event !== event.type) return false;
  if (rule.where?.length && !matchesDataConditions(toStoredData(event.data), rule.where)) return false;
  if (!rule.sameAs?.length) return true;
  const entryData = (entryEvent?.data ?? {}) as Record<string, unknown>;
  const data = event.data as Record<string, unknown>;
  return rule.sameAs.every((field) => field in data && isDeepStrictEqual(data[field], entryData[field]));
}
