import type { ErrorDetail } from '../errors.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { TemplateStore } from '../templates/template-store.ts';
import type { StepOf } from '../schemas/journey-steps.ts';
import { contentOf, templateSyntaxErrors } from '../rendering/message-content.ts';
import { payloadFloorErrors } from '../rendering/payload-floor.ts';
import { contentTrial, trialsErrors } from '../rendering/trial-render.ts';
import { optionTrials } from '../rendering/option-content-errors.ts';
import { optionsOf } from '../schemas/message-options.ts';

interface PushCheckDeps {
  templates: TemplateStore;
  renderer: RenderPool;
}

/**
 * What a send checks past its body, for a push step: its template exists (a 404 otherwise, as for a send), the
 * content fits a push before rendering, and it renders in time with an entry event bound. Paths are the step's.
 */
export async function pushStepCheckErrors(
  deps: PushCheckDeps,
  projectId: string,
  step: StepOf<'push'>,
  entryEvent: string,
): Promise<ErrorDetail[]> {
  const fromTemplate = step.templateId !== undefined;
  const template = fromTemplate ? await deps.templates.find(projectId, step.templateId!) : null;
  const content = contentOf(template ?? step);
  const stale = template ? templateSyntaxErrors(content) : [];
  if (stale.length > 0) return stale;
  const { buttons = step.buttons, localizations = step.localizations } = template ? optionsOf(template) : step;
  const tooLarge = payloadFloorErrors(
    { content, data: step.data ?? {}, buttons, localizations },
    { content: fromTemplate, buttons: !!template?.buttons, localizations: !!template?.localizations },
  );
  if (tooLarge.length > 0) return tooLarge;
  if (step.silent) return [];
  const scope = { data: step.data, entryEvent: { type: entryEvent, data: {} } };
  // A template's own buttons and languages were rendered when it was saved.
  const trials = [
    contentTrial(content, fromTemplate),
    ...(template ? [] : optionTrials(content, { buttons, localizations })),
  ];
  return trialsErrors(deps.renderer, projectId, trials, scope);
}
