import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { TemplateDocument } from '../models/template.ts';
import type { TemplateBody, TemplateView } from '../schemas/template.ts';
import { invalidRequest, notFound, type ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';
import { storedContentErrors } from '../rendering/payload-floor.ts';
import { contentOf } from '../rendering/message-content.ts';
import { optionContentErrors, optionTrials } from '../rendering/option-content-errors.ts';
import { optionsOf } from '../schemas/message-options.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import { contentTrial, trialsErrors } from '../rendering/trial-render.ts';
import { newestFirstListing, newestFirst } from '../models/newest-first-list.ts';

type StoredTemplate = TemplateDocument & { _id: string; createdAt: Date; updatedAt: Date };

/** Also read on a body that failed its schema: a field that is not a string is skipped. */
export const templateContentErrors = (body: unknown): ErrorDetail[] => [
  ...storedContentErrors(fieldsOf(body)),
  ...optionContentErrors(body),
];

async function assertSendable(renderer: RenderPool, projectId: string, input: TemplateBody): Promise<void> {
  const details = templateContentErrors(input);
  const content = contentOf(input);
  const trials = [contentTrial(content), ...optionTrials(content, optionsOf(input))];
  if (details.length === 0) details.push(...(await trialsErrors(renderer, projectId, trials, {})));
  if (details.length > 0) throw invalidRequest('The template is not valid; see details for each field.', details);
}

function storedFields(input: TemplateBody) {
  return {
    name: input.name,
    title: input.title ?? null,
    body: input.body,
    url: input.url ?? null,
    imageUrl: input.imageUrl ?? null,
    buttons: input.buttons ?? null,
    localizations: input.localizations ?? null,
  };
}

const missing = (templateId: string) => notFound(`No template "${templateId}" in this project.`);

export function toTemplateView(template: StoredTemplate): TemplateView {
  return {
    id: template._id,
    name: template.name,
    title: template.title ?? null,
    body: template.body,
    url: template.url ?? null,
    imageUrl: template.imageUrl ?? null,
    ...optionsOf({ buttons: template.buttons, localizations: template.localizations }),
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
  };
}

/** Templates are checked as Liquid when written, so a send never discovers a broken one. */
export class TemplateStore {
  private readonly models: Models;
  private readonly renderer: RenderPool;

  constructor(models: Models, renderer: RenderPool) {
    this.models = models;
    this.renderer = renderer;
  }

  async create(projectId: string, input: TemplateBody): Promise<StoredTemplate> {
    await assertSendable(this.renderer, projectId, input);
    const document = await this.models.Template.create({ _id: randomUUID(), projectId, ...storedFields(input) });
    return document.toObject() as StoredTemplate;
  }

  private readonly listing = newestFirstListing<StoredTemplate>((filter, count) =>
    this.models.Template.find(filter).sort(newestFirst).limit(count).lean<StoredTemplate[]>(),
  );
  readonly list = this.listing.list;
  readonly boundary = this.listing.boundary;

  async find(projectId: string, templateId: string): Promise<StoredTemplate> {
    const template = await this.models.Template.findOne({ _id: templateId, projectId }).lean<StoredTemplate>();
    if (!template) throw missing(templateId);
    return template;
  }

  async replace(projectId: string, templateId: string, input: TemplateBody): Promise<StoredTemplate> {
    await assertSendable(this.renderer, projectId, input);
    const template = await this.models.Template.findOneAndUpdate(
      { _id: templateId, projectId },
      { $set: storedFields(input) },
      { returnDocument: 'after' },
    ).lean<StoredTemplate>();
    if (!template) throw missing(templateId);
    return template;
  }

  async delete(projectId: string, templateId: string): Promise<void> {
    const result = await this.models.Template.deleteOne({ _id: templateId, projectId });
    if (result.deletedCount === 0) throw missing(templateId);
  }
}
