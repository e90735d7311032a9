import type { RenderPool } from '../rendering/render-pool.ts';
import type { ScopeDevice } from '../rendering/personalization-scope.ts';
import type { DeviceRendering } from '../rendering/render-task.ts';
import type { RenderJob, RenderRequest } from '../rendering/render-task.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';

interface WaitingAnswer {
  messages: StoredInAppMessage[];
  device: ScopeDevice;
  resolve: (renderings: DeviceRendering[]) => void;
  reject: (error: unknown) => void;
}

const requestOf = (message: StoredInAppMessage): RenderRequest => ({
  content: { title: message.title ?? null, body: message.body, url: null, imageUrl: null },
  data: {},
  entryEvent: null,
});

/**
 * The in-app answers of one project rendered together: the answers asked for while the project's render task is out
 * wait for it to return and then go as one task (each message once, each device's messages as jobs of it), as
 * DeviceReads gathers reads. A project's renders take turns in the pool anyway (one thread a project at most); this
 * makes a turn serve every device waiting instead of one, so under load a fetch pays a share of one round trip to a
 * render thread and of one copy of the messages. Each job is still bounded and stopped alone: a device whose render
 * is stopped loses only that message.
 */
export class GatheredRenders {
  private readonly renderer: RenderPool;
  private readonly waiting = new Map<string, WaitingAnswer[]>();

  constructor(renderer: RenderPool) {
    this.renderer = renderer;
  }

  /** Each message rendered for the device, in the order given. */
  render(projectId: string, messages: StoredInAppMessage[], device: ScopeDevice): Promise<DeviceRendering[]> {
    return new Promise((resolve, reject) => {
      const queued = this.waiting.get(projectId);
      if (queued) {
        queued.push({ messages, device, resolve, reject });
        return;
      }
      this.waiting.set(projectId, [{ messages, device, resolve, reject }]);
      setImmediate(() => void this.renderWhileWaiting(projectId));
    });
  }

  /** Renders what waits for the project, then what gathered meanwhile, until nothing waits. */
  private async renderWhileWaiting(projectId: string): Promise<void> {
    for (;;) {
      const answers = this.waiting.get(projectId)!;
      // An empty list marks the project's task as out: answers asked for meanwhile join it.
      this.waiting.set(projectId, []);
      await this.renderTogether(projectId, answers);
      if (this.waiting.get(projectId)!.length === 0) break;
    }
    this.waiting.delete(projectId);
  }

  private async renderTogether(projectId: string, answers: WaitingAnswer[]): Promise<void> {
    const requestIndex = new Map<StoredInAppMessage, number>();
    const requests: RenderRequest[] = [];
    const jobs: RenderJob[] = [];
    for (const { messages, device } of answers)
      for (const message of messages) {
        let request = requestIndex.get(message);
        if (request === undefined) {
          request = requests.push(requestOf(message)) - 1;
          requestIndex.set(message, request);
        }
        jobs.push({ request, device });
      }
    try {
      const renderings = await this.renderer.renderEach(requests, jobs, { projectId });
      let next = 0;
      for (const answer of answers) {
        answer.resolve(renderings.slice(next, next + answer.messages.length));
        next += answer.messages.length;
      }
    } catch (error) {
      for (const answer of answers) answer.reject(error);
    }
  }
}

/** One gathering per render pool: every in-app answer of the process meets the others of its project. */
export const gatheredRenders = weakMemoize((renderer: RenderPool) => new GatheredRenders(renderer));
