/**
 * Append-only typed arrays that double their capacity, so readers store one number per row
 * without allocating an object per row. A reader that can tell its row count ahead `reserve`s it:
 * a buffer outgrown is freed only at a major collection, which a reader that allocates nothing
 * else may not meet until long after (its memory then adds to the peak).
 */
export class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1 << 16) {
    this.data = new Int32Array(capacity);
  }
  push(x: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = x;
  }
  private grow(): void {
    this.reserve(this.data.length * 2);
  }
  /** Room for `capacity` values in all (no smaller). */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Int32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** A view of the pushed values (shares memory until the next push that grows). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1 << 16) {
    this.data = new Float64Array(capacity);
  }
  push(x: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = x;
  }
  private grow(): void {
    this.reserve(this.data.length * 2);
  }
  /** Room for `capacity` values in all (no smaller). */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Float64Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
