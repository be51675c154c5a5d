/**
 * Append-only typed arrays that double their capacity, so readers store one number per row
 * without allocating an object per row.
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
    const next = new Int32Array(this.data.length * 2);
    next.set(this.data);
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
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
