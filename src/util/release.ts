/**
 * Hands the memory of big arrays back at once, instead of at V8's next major collection.
 *
 * Why: an ArrayBuffer's memory goes back to the system only when a full garbage collection finds
 * it dead, and the main thread of a run allocates almost nothing on its own heap while the
 * workers compute, so no such collection may come for a minute. The interactions a data set's
 * vectors are built from (three arrays over every rating: 300 MB for a 25M-rating file) then
 * stayed beside the vectors through the whole computation, and a collection that came at one
 * moment or another moved a run's peak by that much from run to run.
 *
 * How: each buffer is transferred into a message channel that is closed unread, so its memory is
 * freed when the event loop next turns. The arrays are detached (length 0) afterwards: the caller
 * must be their only holder. A buffer that cannot be transferred (a slice of Node's Buffer pool,
 * a SharedArrayBuffer) is left to the collector as before.
 */
import { MessageChannel } from 'node:worker_threads';

/** Below this, a buffer is left to the collector (the channel is not worth it). */
const MIN_BYTES = 1 << 20;

/** Frees the buffers of these arrays when the event loop next turns; the arrays must not be read again. */
export function releaseArrays(arrays: readonly (ArrayBufferView | undefined)[]): void {
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) {
    if (a && a.buffer instanceof ArrayBuffer && a.buffer.byteLength >= MIN_BYTES) buffers.add(a.buffer);
  }
  if (buffers.size === 0) return;
  const { port1, port2 } = new MessageChannel();
  try {
    for (const b of buffers) {
      try {
        port1.postMessage(null, [b]);
      } catch {
        // not transferable (a pooled Buffer's memory): the collector frees it as before
      }
    }
  } finally {
    port1.close();
    port2.close();
  }
}

/**
 * Resolves once the buffers released so far are freed: the channels close in the event loop's
 * close phase, which follows the check phase of one turn, so two turns (measured: after one, a
 * released 400 MB is still held; after two, it is gone). A loader that allocates its next big
 * arrays right after releasing others awaits it so that the two do not add up.
 */
export function releasedArraysFreed(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
