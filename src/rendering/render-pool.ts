import { Piscina } from 'piscina';
import type { Worker } from 'node:worker_threads';
import type { ContentField } from './message-content.ts';
import type { ScopeDevice } from './personalization-scope.ts';
import { OneAtATime } from './one-at-a-time.ts';
import { RenderProgress } from './render-progress.ts';
import { clearProcessHeapFlags, renderThreadLimits } from './render-thread-limits.ts';
import { watchRender } from './render-watchdog.ts';
import {
  decodeAnswer,
  encodeRenderTask,
  notRenderedReason,
  renderTimeoutReason,
  type DeviceRendering,
  type RenderJob,
  type RenderRequest,
  type RenderTask,
  type TaskAnswer,
} from './render-task.ts';

export interface RenderPoolOptions {
  threads: number;
  /** How much of its thread's processor time one device's field may use before the thread is terminated. */
  timeoutMs: number;
  /** The module a thread runs: render-thread.ts, or a test's stand-in that wraps it. */
  threadModule?: URL;
}

type RenderBounds = { projectId: string; maxStops?: number; totalMs?: number };

type TaskOutcome =
  | { renderings: DeviceRendering[] }
  | { stopped: 'timeout' | 'crash'; device: number; field: ContentField; error?: unknown };

/**
 * Liquid renders off the event loop, in a few threads, each render bounded in its thread's processor time whatever
 * liquidjs checks or fails to check (and by the clock at `wallLimitFactor` times that): a watchdog (watchRender) reads
 * where a thread is and terminates a thread that has spent the bound on one field of one device; Piscina starts another
 * in its place. All the devices of a call go to a thread as one task, so a batch pays one round trip; the devices a
 * stopped task had not finished go again as a new task, so only the device past the bound fails. A thread that dies
 * otherwise (out of its heap, terminated) has its devices rendered again; a device it died on twice fails. Time a task
 * waits for a thread is not counted: a render waiting behind a hostile one is not blamed for it.
 */
export class RenderPool {
  private readonly options: RenderPoolOptions;
  private pool: Piscina<RenderTask, TaskAnswer> | undefined;
  private readonly inFlight = new Set<RenderProgress>();
  private readonly byProject = new OneAtATime();

  constructor(options: RenderPoolOptions) {
    this.options = options;
  }

  /**
   * Each device's content, in the order given; threads start at the first render, so a process that never renders has
   * none. A project's renders run one at a time, so that one project can hold one thread at most, whatever it sends:
   * the others' renders find a thread free. Past `maxStops` devices stopped (by the time bound or by one of the engine's
   * limits), the content counts as too costly for anyone: the devices not yet rendered fail without a render, so one
   * message cannot hold a thread for the bound times every device it is sent to. `totalMs` bounds the renders of one
   * task together (a trial render of many fields): the jobs not begun by then are stopped the same way.
   */
  render(request: RenderRequest, devices: ScopeDevice[], options: RenderBounds): Promise<DeviceRendering[]> {
    return this.renderEach(
      [request],
      devices.map((device) => ({ request: 0, device })),
      options,
    );
  }

  /**
   * Several messages in one task, each job naming its message and device (one device's in-app messages), each job
   * bounded and stopped as a device of `render` is.
   */
  renderEach(
    requests: RenderRequest[],
    jobs: RenderJob[],
    { projectId, maxStops = Number.POSITIVE_INFINITY, totalMs = Number.POSITIVE_INFINITY }: RenderBounds,
  ): Promise<DeviceRendering[]> {
    return this.byProject.run(projectId, () => this.renderAll(requests, jobs, maxStops, totalMs));
  }

  private async renderAll(
    requests: RenderRequest[],
    jobs: RenderJob[],
    maxStops: number,
    totalMs: number,
  ): Promise<DeviceRendering[]> {
    const renderings: DeviceRendering[] = new Array(jobs.length);
    let pending = jobs.map((_job, index) => index);
    const diedOn = new Set<number>();
    let stops = 0;
    while (pending.length > 0) {
      if (stops >= maxStops) {
        for (const index of pending) renderings[index] = { field: 'body', reason: notRenderedReason, stopped: true };
        break;
      }
      const outcome = await this.runBounded(
        requests,
        pending.map((index) => jobs[index]!),
        { maxStops: maxStops - stops, totalMs },
      );
      if ('renderings' in outcome) {
        outcome.renderings.forEach((rendering, position) => {
          renderings[pending[position]!] = rendering;
        });
        break;
      }
      const culprit = pending[outcome.device]!;
      if (outcome.stopped === 'crash' && !diedOn.has(culprit)) {
        diedOn.add(culprit);
        continue;
      }
      renderings[culprit] = { field: outcome.field, reason: this.stopReason(outcome), stopped: true };
      stops += 1;
      pending = pending.filter((index) => index !== culprit);
    }
    return renderings;
  }

  /** How long one device's field may render; a trial render's fields together get as long. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** The threads running now. */
  get threads(): readonly Worker[] {
    return this.pool?.threads ?? [];
  }

  /** Tasks a thread is rendering now (not those waiting for one). */
  get rendering(): number {
    return [...this.inFlight].filter((progress) => progress.read() !== null).length;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }

  private threadPool(): Piscina<RenderTask, TaskAnswer> {
    if (this.pool) return this.pool;
    clearProcessHeapFlags();
    this.pool = new Piscina<RenderTask, TaskAnswer>({
      filename: (this.options.threadModule ?? new URL('./render-thread.ts', import.meta.url)).href,
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: renderThreadLimits,
    });
    // A thread that dies between tasks is replaced; no render was lost with it.
    this.pool.on('error', () => undefined);
    return this.pool;
  }

  private async runBounded(
    requests: RenderRequest[],
    jobs: RenderJob[],
    bounds: Pick<RenderTask, 'maxStops' | 'totalMs'>,
  ): Promise<TaskOutcome> {
    const progress = new RenderProgress();
    const abort = new AbortController();
    let timedOut: { device: number; field: ContentField } | null = null;
    const endWatch = watchRender(
      progress,
      () => this.threads,
      this.options.timeoutMs,
      ({ device, field }) => {
        timedOut = { device, field };
        abort.abort();
      },
    );
    this.inFlight.add(progress);
    try {
      const task = encodeRenderTask(requests, jobs, progress.buffer, bounds);
      return { renderings: decodeAnswer(await this.threadPool().run(task, { signal: abort.signal })) };
    } catch (error) {
      if (timedOut !== null) return { stopped: 'timeout', ...(timedOut as { device: number; field: ContentField }) };
      const at = progress.read();
      // A task that never began failed for a reason of the pool's, not of any device's.
      if (at === null) throw error;
      return { stopped: 'crash', device: at.device, field: at.field, error };
    } finally {
      endWatch();
      this.inFlight.delete(progress);
    }
  }

  private stopReason(outcome: Exclude<TaskOutcome, { renderings: DeviceRendering[] }>): string {
    if (outcome.stopped === 'timeout')
      return `${renderTimeoutReason}: the ${outcome.field} took longer than ${this.options.timeoutMs} ms to render`;
    const cause = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return `the render thread stopped twice while rendering the ${outcome.field} (${cause})`;
  }
}
