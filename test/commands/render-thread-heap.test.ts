import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readProcfile } from '../../local/start/procfile.ts';

const root = resolve(import.meta.dirname, '../..');
/** The V8 heap flags the Procfile starts the deliver worker with. */
const deliverHeapFlags = readProcfile(resolve(root, 'Procfile'))
  .find((entry) => entry.name === 'worker-deliver')!
  .command.split(' ')
  .filter((word) => word.startsWith('--max-'));

/**
 * The heap limits, in MB, of the render thread of a pool that has rendered once in a process started with `flags`,
 * and of the process's own heap after it.
 */
async function heapLimits(flags: string[]): Promise<{ thread: number; process: number }> {
  const script = `
    const { RenderPool } = await import(${JSON.stringify(`file://${root}/src/rendering/render-pool.ts`)});
    const pool = new RenderPool({ threads: 1, timeoutMs: 1000 });
    const content = { title: 'Hi {{ device.id }}', body: null, url: null, imageUrl: null };
    await pool.render({ content, data: {}, entryEvent: null }, [{ deviceId: 'd' }], { projectId: 'p' });
    // Piscina unrefs an idle thread: the interval keeps the process up until the thread answers.
    const alive = setInterval(() => undefined, 1000);
    const heap = await pool.threads[0].getHeapStatistics();
    clearInterval(alive);
    const { getHeapStatistics } = await import('node:v8');
    const mb = (bytes) => bytes / 1024 / 1024;
    console.log(JSON.stringify({ thread: mb(heap.heap_size_limit), process: mb(getHeapStatistics().heap_size_limit) }));
    await pool.close();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script]);
  return JSON.parse(stdout);
}

describe.concurrent("a render thread's heap", () => {
  it("is bounded by the pool's limits in the deliver worker too, not by the worker's own heap flags", async () => {
    expect(deliverHeapFlags).toEqual(['--max-old-space-size=192', '--max-semi-space-size=32']);
    const [unflagged, deliver] = await Promise.all([heapLimits([]), heapLimits(deliverHeapFlags)]);
    // 64 MB of old generation and 8 of young (render-thread-limits.ts), where the flags would give 192 and 3 × 32.
    expect(unflagged.thread).toBeLessThan(100);
    expect(deliver.thread).toBe(unflagged.thread);
    // The worker's own heap keeps the flags' bounds: 192 MB of old generation and three 32 MB semi-spaces.
    expect(deliver.process).toBe(192 + 3 * 32);
  });
});
