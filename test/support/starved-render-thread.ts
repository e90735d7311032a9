import { RenderProgress } from '../../src/rendering/render-progress.ts';
import type { RenderTask, TaskAnswer } from '../../src/rendering/render-task.ts';
import renderTask from '../../src/rendering/render-thread.ts';

/**
 * A render thread on a starved machine: once it has begun its task's first field it loses its core for the first
 * device's `tags.starvedMs` (it waits without running, as a thread waiting for a core does), then renders as a render
 * thread does.
 */
export default function starvedRenderTask(task: RenderTask): TaskAnswer {
  const starvedMs = Number(task.devices[0]?.tags?.starvedMs ?? 0);
  const enter = RenderProgress.prototype.enter;
  let starved = false;
  RenderProgress.prototype.enter = function enterThenStarve(device, field) {
    enter.call(this, device, field);
    if (starved) return;
    starved = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, starvedMs);
  };
  try {
    return renderTask(task);
  } finally {
    RenderProgress.prototype.enter = enter;
  }
}
