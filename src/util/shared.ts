/**
 * Typed arrays on SharedArrayBuffers, for data every worker thread reads: the executor posts them
 * to the workers as they are (src/machinery/executor.ts shareArray), instead of copying them into
 * shared memory once per (data set, n) group and keeping both copies while the group runs.
 * Zero-filled like their ordinary counterparts, and read and written the same way.
 */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT));
}

export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}
