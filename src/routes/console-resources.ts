import type { App } from '../http/app-types.ts';
import type { AppContext } from '../app-context.ts';
import { registerResourceRoutes } from './resource-routes.ts';
import { TemplateBody, TemplateView } from '../schemas/template.ts';
import { SegmentBody, SegmentView } from '../schemas/segment.ts';
import { JourneyBody, JourneyView } from '../schemas/journey.ts';
import { templateContentErrors, toTemplateView } from '../templates/template-store.ts';
import { toSegmentView } from '../segments/segment-store.ts';
import { segmentDefinitionErrors } from '../segments/segment-conditions.ts';
import { toJourneyView } from '../journeys/journey-store.ts';
import { journeyDefinitionErrors } from '../journeys/journey-definition-errors.ts';
import { registerPreviewSegment } from './segments/preview-segment.ts';
import { registerJourneyTravellers } from './journeys/journey-travellers.ts';
import { journeyDetailView } from '../journeys/journey-details.ts';

/** Templates, segments and journeys: the resources a console edits, each with the same five routes. */
export function registerConsoleResources(app: App, context: AppContext): void {
  registerResourceRoutes(app, {
    collection: 'templates',
    noun: 'template',
    Body: TemplateBody,
    View: TemplateView,
    store: context.templates,
    toView: toTemplateView,
    pastSchemaErrors: templateContentErrors,
    summaries: {
      create: 'Create a message template (Liquid)',
      replace: 'Replace a template; later sends use the new content',
      delete: 'Delete a template; notifications already accepted keep their copy of its content',
    },
  });
  registerResourceRoutes(app, {
    collection: 'segments',
    noun: 'segment',
    Body: SegmentBody,
    View: SegmentView,
    store: context.segments,
    toView: toSegmentView,
    pastSchemaErrors: segmentDefinitionErrors,
    summaries: {
      create: 'Create a segment of devices by tags and event conditions (CONTRACTS §7)',
      replace: 'Replace a segment; sends that start later use the new definition',
      delete: 'Delete a segment; a send to it not started yet fails, one fanning out keeps the devices it has queued',
    },
  });
  registerPreviewSegment(app, context);
  registerResourceRoutes(app, {
    collection: 'journeys',
    noun: 'journey',
    Body: JourneyBody,
    View: JourneyView,
    store: context.journeys,
    toView: toJourneyView,
    detailView: (_projectId, journey) => journeyDetailView(context, journey),
    pastSchemaErrors: journeyDefinitionErrors,
    summaries: {
      create: "Create a journey: steps each matching event's subject travels (CONTRACTS §18)",
      description:
        'Steps: wait, push, waitForEvent, branch, split, setTags, webhook. A push step may read the entering event as {{ entry_event.type }} and {{ entry_event.data.x }}. The first form (trigger, delaySeconds, content, active) is still taken, as entry + wait + push.',
      replace: 'Replace a journey: a new version; travellers finish on theirs; status pauses or resumes it',
      delete: 'Delete a journey: every traveller exits',
    },
  });
  registerJourneyTravellers(app, context);
}
