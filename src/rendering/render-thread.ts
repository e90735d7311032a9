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
import { personalizationScope } from './personalization-scope.ts';
import type { ScopeDevice } from './personalization-scope.ts';
import { printableObjects } from './printable-objects.ts';
import { RenderLimitError } from './liquid.ts';
import {
  encodeAnswer,
  notRenderedReason,
  renderTimeoutReason,
  type DeviceRendering,
  type RenderRequest,
  type RenderTask,
  type TaskAnswer,
} from './render-task.ts';
import { RenderProgress } from './render-progress.ts';
import { threadCpuMicros } from './thread-cpu.ts';
import { renderKeyOf } from './render-key.ts';

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

/**
 * Runs in a render thread: each job's content, in order, saying before each job and field where it is. A job whose
 * message was rendered in this task for a device of the same render key (renderKeyOf) takes that rendering. A render
 * past one of the engine's limits is stopped, as the pool stops one past its time bound; past the task's `maxStops`
 * of them, or once the task has used `totalMs` of the thread's processor time, the jobs left fail without a render.
 */
export default function renderTask(task: RenderTask): TaskAnswer {
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
  const keyers = contents.map((content) => ('reason' in content ? null : renderKeyOf(content)));
  const renderedAs = new Map<string, number>();
  const renderings: DeviceRendering[] = new Array(task.jobs.length / 2);
  // Processor time, as the pool's bound: a thread waiting for a core on a loaded machine has not rendered meanwhile.
  const began = Number.isFinite(task.totalMs) ? threadCpuMicros() : 0;
  let stops = 0;
  for (let index = 0; index < renderings.length; index++) {
    if (stops >= task.maxStops) {
      renderings[index] = { field: 'body', reason: notRenderedReason, stopped: true };
      continue;
    }
    if (Number.isFinite(task.totalMs) && (threadCpuMicros() - began) / 1000 >= task.totalMs) {
      const reason = `${renderTimeoutReason}: the content took longer than ${task.totalMs} ms to render in all`;
      renderings[index] = { field: 'body', reason, stopped: true };
      stops = task.maxStops;
      continue;
    }
    const at = task.jobs[2 * index]!;
    const device = task.devices[task.jobs[2 * index + 1]!]!;
    const content = contents[at]!;
    if ('reason' in content) {
      renderings[index] = content;
      continue;
    }
    const key = keyers[at] ? `${at} ${keyers[at](device)}` : null;
    const same = key === null ? undefined : renderedAs.get(key);
    if (same !== undefined) {
      renderings[index] = renderings[same]!;
      continue;
    }
    try {
      renderings[index] = {
        content: renderContent(content, scopeFor(device, task.requests[at]!), (field) =>
          progress.enter(index, contentFields.indexOf(field)),
        ),
      };
    } catch (error) {
      if (!(error instanceof FieldRenderError)) throw error;
      const stopped = error.cause instanceof RenderLimitError;
      renderings[index] = { field: error.field, reason: error.message, ...(stopped && { stopped }) };
      if (stopped) stops += 1;
    }
    if (key !== null) renderedAs.set(key, index);
  }
  return encodeAnswer(renderings);
}
