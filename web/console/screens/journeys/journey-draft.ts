import type { JourneyStatus, JourneyView } from '../../../../src/schemas/journey.ts';
import { type Duration, durationOf, secondsOf } from './duration.ts';
import { draftOf, listOf, type StepDraft, stepOf, wherePart } from './step-draft.ts';
import { type DraftComparison, whereDraftOf } from '../segments/draft.ts';

export interface ExitRuleDraft {
  event: string;
  sameAs: string;
  where: DraftComparison[];
}

/** A journey as the builder edits it (CONTRACTS §18). */
export interface JourneyDraft {
  name: string;
  status: JourneyStatus;
  entryEvent: string;
  entryWhere: DraftComparison[];
  segmentId: string;
  reentry: 'afterExit' | 'never' | 'afterSeconds';
  reentryAfter: Duration;
  exit: ExitRuleDraft[];
  steps: StepDraft[];
}

export const newJourneyDraft = (): JourneyDraft => ({
  name: '',
  status: 'draft',
  entryEvent: '',
  entryWhere: [],
  segmentId: '',
  reentry: 'afterExit',
  reentryAfter: { amount: '1', unit: 'days' },
  exit: [],
  steps: [],
});

export function journeyDraftOf(journey: JourneyView): JourneyDraft {
  const { reentry } = journey;
  return {
    name: journey.name,
    status: journey.status,
    entryEvent: journey.entry.event,
    entryWhere: whereDraftOf(journey.entry.where),
    segmentId: journey.audience?.segmentId ?? '',
    reentry: typeof reentry === 'string' ? reentry : 'afterSeconds',
    reentryAfter: typeof reentry === 'string' ? { amount: '1', unit: 'days' } : durationOf(reentry.afterSeconds),
    exit: journey.exit.map((rule) => ({
      event: rule.event,
      sameAs: (rule.sameAs ?? []).join(', '),
      where: whereDraftOf(rule.where),
    })),
    steps: journey.steps.map(draftOf),
  };
}

/** The body of a POST or PUT: a PUT replaces the whole journey. */
export function journeyBodyOf(draft: JourneyDraft): Record<string, unknown> {
  return {
    name: draft.name,
    status: draft.status,
    entry: { event: draft.entryEvent, ...wherePart(draft.entryWhere) },
    ...(draft.segmentId !== '' && { audience: { segmentId: draft.segmentId } }),
    reentry: draft.reentry === 'afterSeconds' ? { afterSeconds: secondsOf(draft.reentryAfter) } : draft.reentry,
    exit: draft.exit.map((rule) => {
      const sameAs = listOf(rule.sameAs);
      return {
        event: rule.event,
        ...wherePart(rule.where),
        ...(sameAs.length > 0 && { sameAs }),
      };
    }),
    steps: draft.steps.map(stepOf),
  };
}
