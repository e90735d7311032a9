import type { NotificationData } from '../schemas/notification.ts';
import {
  contentFields,
  contentSyntaxErrors,
  FieldRenderError,
  parseContent,
  renderContent,
  type ContentField,
  type MessageContent,
  type ParsedContent,
} from './message-content.ts';
import type { EntryEvent } from '../schemas/events.ts';
import { personalizationScope, type ScopeDevice } from './personalization-scope.ts';
import { printableObjects } from './printable-objects.ts';
import { RenderProgress } from './render-progress.ts';

/** What one message renders with, for every device of a task. */
export interface RenderRequest {
  content: MessageContent;
  data: NotificationData;
  entryEvent: EntryEvent | null;
}

/** One render of a task: a device, and which of the task's messages it renders. */
export interface RenderJob {
  request: number;
  device: ScopeDevice;
}

export interface RenderTask {
  requests: RenderRequest[];
  jobs: RenderJob[];
  /** Where this thread says which device and field it is rendering, for the pool's watchdog to read. */
  progress: SharedArrayBuffer;
}

/**
 * A device's content, or why it has none: the field that failed, and the reason; `stopped` when the pool stopped its
 * render (past the time bound, or its thread died on it twice), which says the content itself is too costly.
 */
export type DeviceRendering = { content: MessageContent } | RenderFailure;
export type RenderFailure = { field: ContentField; reason: string; stopped?: true };

const parsedCapacity = 100;
const parsed = new Map<string, ParsedContent>();

/** A notification's content is parsed once per thread, not per batch: its most recent ones are kept. */
function parsedContent(content: MessageContent): ParsedContent {
  const key = JSON.stringify([content.title, content.body, content.url, content.imageUrl]);
  let entry = parsed.get(key);
  if (entry === undefined) {
    entry = parseContent(content);
    if (parsed.size >= parsedCapacity) parsed.delete(parsed.keys().next().value!);
  }
  parsed.delete(key);
  parsed.set(key, entry);
  return entry;
}

/** A message's parsed content, or, for content stored before a rule of today's parser, the field that fails. */
function parsedOrFailure(content: MessageContent): ParsedContent | { field: ContentField; reason: string } {
  try {
    return parsedContent(content);
  } catch (error) {
    const field = contentFields.find((name) => contentSyntaxErrors({ [name]: content[name] }).length > 0);
    return { field: field ?? 'body', reason: (error as Error).message };
  }
}

/** Runs in a render thread: each job's content, in order, saying before each job and field where it is. */
export default function renderTask(task: RenderTask): DeviceRendering[] {
  const progress = new RenderProgress(task.progress);
  const contents = task.requests.map((request) => parsedOrFailure(request.content));
  // A device's jobs come one after another (its content, then its buttons) with the same variables: one scope serves.
  let last: { device: ScopeDevice; request: RenderRequest; scope: object } | null = null;
  const scopeFor = (device: ScopeDevice, request: RenderRequest) => {
    if (last?.device !== device || last.request.data !== request.data || last.request.entryEvent !== request.entryEvent)
      last = {
        device,
        request,
        scope: printableObjects(personalizationScope(device, request.data, request.entryEvent)),
      };
    return last.scope;
  };
  return task.jobs.map(({ request: at, device }, index) => {
    const content = contents[at]!;
    if ('reason' in content) return content;
    try {
      return {
        content: renderContent(content, scopeFor(device, task.requests[at]!), (field) =>
          progress.enter(index, contentFields.indexOf(field)),
        ),
      };
    } catch (error) {
      if (error instanceof FieldRenderError) return { field: error.field, reason: error.message };
      throw error;
    }
  });
}
