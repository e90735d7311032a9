import type { Deps } from '../deps.ts';
import type { TemplateStore } from '../templates/template-store.ts';
import type { DeviceStore } from '../devices/device-store.ts';
import type { PreviewNotificationBody, RenderedContent } from '../schemas/notification.ts';
import { optionContentErrors } from '../rendering/option-content-errors.ts';
import { chosenLocalization, localizationKeys, localizedContent } from '../rendering/localized-content.ts';
import { invalidRequest } from '../errors.ts';
import { contentOf, contentSyntaxErrors, templateSyntaxErrors } from '../rendering/message-content.ts';

/** The content as the delivery worker would render it for the device: a template's, or the inline fields. */
export async function previewContent(
  deps: Pick<Deps, 'renderer'> & { templates: TemplateStore; devices: DeviceStore },
  projectId: string,
  input: PreviewNotificationBody,
): Promise<RenderedContent> {
  const template = input.templateId === undefined ? null : await deps.templates.find(projectId, input.templateId);
  const own = contentOf(template ?? input);
  const localizations = template?.localizations ?? input.localizations;
  // A stored template that is not valid Liquid today is named through /templateId, as a send naming it is told.
  const syntaxErrors =
    input.templateId === undefined
      ? [...contentSyntaxErrors(own), ...optionContentErrors({ localizations })]
      : templateSyntaxErrors(own);
  if (syntaxErrors.length > 0)
    throw invalidRequest('The content is not valid Liquid; see details for each field.', syntaxErrors);
  const device = input.deviceId === undefined ? { deviceId: '' } : await deps.devices.find(projectId, input.deviceId);
  // The language the device would get, as the delivery chooses it.
  const language = chosenLocalization(
    localizationKeys(localizations ?? undefined),
    'language' in device ? device.language : null,
  );
  const content = language === null ? own : localizedContent(own, localizations![language]!);
  const request = { content, data: input.data ?? {}, entryEvent: null };
  const [rendering] = await deps.renderer.render(request, [device], { projectId });
  if (rendering !== undefined && 'content' in rendering)
    return language === null ? rendering.content : { ...rendering.content, language };
  const { field, reason } = rendering!;
  // A template's field is not the request's: the request names the template.
  const path = input.templateId === undefined ? `/${field}` : '/templateId';
  throw invalidRequest('The content could not be rendered.', [
    { path, message: input.templateId === undefined ? reason : `its ${field}: ${reason}` },
  ]);
}
