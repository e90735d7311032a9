import { threadId } from 'node:worker_threads';
import { contentFields, type ContentField } from './message-content.ts';
import { threadCpuMicros } from './thread-cpu.ts';

const slots = { version: 0, device: 1, field: 2, since: 3, cpuMicros: 4, cpuAt: 5, thread: 6 } as const;

/** The thread's processor time is read at most this often: each read is a system call, and fields take microseconds. */
const cpuReadEveryMs = 1;

/** Where a render thread is: which device and field, since when, and its own processor time read just before. */
export interface RenderPlace {
  device: number;
  field: ContentField;
  /** When the field began, in ms since the epoch. */
  since: number;
  /** The thread's processor time (user and system, µs), read at `cpuAt` (ms since the epoch), under 1 ms before `since`. */
  cpuMicros: number;
  cpuAt: number;
  /** The worker thread's `threadId`, for the pool to ask its processor time. */
  thread: number;
}

/**
 * Shared between a render thread and the pool: which device and field the thread is rendering, since when, and the
 * thread's processor time then. The thread writes it before each field; the pool's watchdog reads it, so a render past
 * its bound is found without a message from a thread that may never answer again. The version is odd while the thread
 * writes, so a reader never takes half of one place and half of the next.
 */
export class RenderProgress {
  private readonly slots: Float64Array;
  private readonly version: Int32Array;

  constructor(buffer = new SharedArrayBuffer(7 * Float64Array.BYTES_PER_ELEMENT)) {
    this.slots = new Float64Array(buffer);
    this.version = new Int32Array(buffer, 0, 1);
  }

  get buffer(): SharedArrayBuffer {
    return this.slots.buffer as SharedArrayBuffer;
  }

  enter(device: number, field: number): void {
    const now = Date.now();
    Atomics.add(this.version, 0, 1);
    this.slots[slots.device] = device;
    this.slots[slots.field] = field;
    this.slots[slots.since] = now;
    if (now - this.slots[slots.cpuAt]! >= cpuReadEveryMs) {
      this.slots[slots.cpuMicros] = threadCpuMicros();
      this.slots[slots.cpuAt] = now;
    }
    this.slots[slots.thread] = threadId;
    Atomics.add(this.version, 0, 1);
  }

  /** The place being rendered, or null before the thread has begun. */
  read(): RenderPlace | null {
    for (;;) {
      const version = Atomics.load(this.version, 0);
      if (version === 0) return null;
      const place: RenderPlace = {
        device: this.slots[slots.device]!,
        field: contentFields[this.slots[slots.field]!] ?? 'body',
        since: this.slots[slots.since]!,
        cpuMicros: this.slots[slots.cpuMicros]!,
        cpuAt: this.slots[slots.cpuAt]!,
        thread: this.slots[slots.thread]!,
      };
      // A thread between two writes is moving on: a few stores, or it died there and the place is its last.
      if (version % 2 === 0 && Atomics.load(this.version, 0) === version) return place;
      if (version % 2 === 1 && Atomics.load(this.version, 0) === version && !this.moving(version)) return place;
    }
  }

  /** Whether the thread finishes its write within a moment (a thread terminated halfway never does). */
  private moving(version: number): boolean {
    for (let spin = 0; spin < 1_000; spin++) if (Atomics.load(this.version, 0) !== version) return true;
    return false;
  }
}
