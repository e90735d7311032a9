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

/** The heap limit, in MB, of the render thread of a pool that has rendered once in a process started with `flags`. */
async function renderThreadHeapLimit(flags: string[]): Promise<number> {
  const script = `
    const { RenderPool } = await import(${JSON.stringify(`file://${root}/src/rendering/render-pool.ts`)});
    const pool = new RenderPool({ threads: 1, timeoutMs: 1000 });
    const content = { title: 'Hi {{ device.id }}', body: null, url: null, imageUrl: null };
    await pool.render({ content, data: {}, entryEvent: null }, [{ deviceId: 'd' }], { projectId: 'p' });
    // Piscina unrefs an idle thread: the interval keeps the process up until the thread answers.
    const alive = setInterval(() => undefined, 1000);
    const heap = await pool.threads[0].getHeapStatistics();
    clearInterval(alive);
    console.log(heap.heap_size_limit / 1024 / 1024);
    await pool.close();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script]);
  return Number(stdout);
}

describe.concurrent("a render thread's heap", () => {
  it("is bounded by the pool's limits in the deliver worker too, not by the worker's own heap flags", async () => {
    expect(deliverHeapFlags).toEqual(['--max-old-space-size=192', '--max-semi-space-size=32']);
    const [unflagged, deliver] = await Promise.all([
      renderThreadHeapLimit([]),
      renderThreadHeapLimit(deliverHeapFlags),
    ]);
    // 64 MB of old generation and 8 of young (render-thread-limits.ts), where the flags would give 192 and 3 × 32.
    expect(unflagged).toBeLessThan(100);
    expect(deliver).toBe(unflagged);
  });
});
