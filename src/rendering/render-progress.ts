import { contentFields, type ContentField } from './message-content.ts';

const slots = { device: 0, field: 1, since: 2 } as const;

/**
 * Shared between a render thread and the pool: which device and field the thread is rendering, and since when (ms
 * since the epoch; 0 before it starts). The thread writes it before each field; the pool's watchdog reads it, so a
 * render past its bound is found without a message from a thread that may never answer again.
 */
export class RenderProgress {
  private readonly slots: BigInt64Array;

  constructor(buffer = new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT)) {
    this.slots = new BigInt64Array(buffer);
  }

  get buffer(): SharedArrayBuffer {
    return this.slots.buffer as SharedArrayBuffer;
  }

  /** The time first: a reader that finds it unchanged around its reads of the rest read one consistent place. */
  enter(device: number, field: number): void {
    Atomics.store(this.slots, slots.since, BigInt(Date.now()));
    Atomics.store(this.slots, slots.device, BigInt(device));
    Atomics.store(this.slots, slots.field, BigInt(field));
  }

  /** The device and field being rendered and since when, or null before the thread has begun. */
  read(): { device: number; field: ContentField; since: number } | null {
    const since = Atomics.load(this.slots, slots.since);
    const device = Number(Atomics.load(this.slots, slots.device));
    const field = contentFields[Number(Atomics.load(this.slots, slots.field))] ?? 'body';
    // The thread moved on meanwhile: it is rendering something that began just now.
    if (Atomics.load(this.slots, slots.since) !== since) return { device, field, since: Date.now() };
    return since === 0n ? null : { device, field, since: Number(since) };
  }
}
