/**
 * Reusable backing stores for the big arrays of one trial cell (users × κ doubles: the clean
 * projections, LapLSH's noise directions, the directional mechanisms' parts), one pool per thread.
 *
 * Why: on a virtual machine that hands pages back to its host, the first touch of fresh memory
 * costs a page fault per 4 KiB, measured at about 4 ms per MB on the development machine — more
 * than the arithmetic done on it (a 65 MB array of a 162,541-user, κ = 50 cell: 0.25 s to touch,
 * 0.01 s to fill again). A worker runs its cells one after another, so the buffers of the last
 * cell serve the next.
 *
 * Contract: `reclaim()` makes every buffer lent since the last call free again; the caller must
 * hold no view of them after it (src/machinery/trialThread.ts reclaims when a cell's results are
 * plain numbers). Each lend is a new view object, so caches keyed by a view (WeakMaps) never see
 * a reused one.
 */
export class BufferPool {
  readonly #free: ArrayBuffer[] = [];
  readonly #lent: ArrayBuffer[] = [];

  /** A zero-filled Float64Array of `length`, on the smallest free buffer that holds it, else a new one. */
  float64(length: number): Float64Array {
    const bytes = length * Float64Array.BYTES_PER_ELEMENT;
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.#free[best]!.byteLength)) best = i;
    }
    let buffer: ArrayBuffer;
    if (best < 0) buffer = new ArrayBuffer(bytes);
    else {
      buffer = this.#free[best]!;
      this.#free.splice(best, 1);
    }
    this.#lent.push(buffer);
    const view = new Float64Array(buffer, 0, length);
    if (best >= 0) view.fill(0);
    return view;
  }

  /** Every buffer lent since the last reclaim is free again (see the contract above). */
  reclaim(): void {
    this.#free.push(...this.#lent);
    this.#lent.length = 0;
    // a pool that outgrew its use (a data set of other sizes) keeps only the largest few
    if (this.#free.length > MAX_FREE) {
      this.#free.sort((a, b) => b.byteLength - a.byteLength);
      this.#free.length = MAX_FREE;
    }
  }

  /** Bytes held by the free buffers (for tests and diagnostics). */
  get freeBytes(): number {
    return this.#free.reduce((sum, b) => sum + b.byteLength, 0);
  }
}

/** Free buffers kept between cells: a cell lends at most four big arrays (projections, and LapLSH's or the directional mechanisms' draws). */
const MAX_FREE = 4;

/** A Float64Array allocator: the pool's in a trial cell, `new Float64Array` elsewhere. */
export type Float64Alloc = (length: number) => Float64Array;

export const freshFloat64: Float64Alloc = (length) => new Float64Array(length);
