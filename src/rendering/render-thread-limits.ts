import v8 from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/** A render thread's heap: a render that outgrows it ends its thread, never the process. */
const threadHeapMb = 64;
/**
 * A render thread's young generation: its tasks' garbage is short-lived strings, and V8's default young generation
 * (tens of MB a thread) is resident memory the worker pays for each thread beside its own.
 */
const threadYoungHeapMb = 8;

export const renderThreadLimits: ResourceLimits = {
  maxOldGenerationSizeMb: threadHeapMb,
  maxYoungGenerationSizeMb: threadYoungHeapMb,
};

/**
 * Clears the process's V8 heap flags (the Procfile starts workers with --max-old-space-size, the deliver worker with
 * --max-semi-space-size too): V8 applies them to every isolate it creates, above a thread's own resource limits, so a
 * render thread would grow to the process's bounds. The process's own heap keeps the bounds it was created with; an
 * isolate created afterwards without limits of its own gets V8's defaults, so every worker thread names its limits.
 */
export function clearProcessHeapFlags(): void {
  for (const flag of ['--max-old-space-size', '--max-semi-space-size', '--max-heap-size'])
    v8.setFlagsFromString(`${flag}=0`);
}
