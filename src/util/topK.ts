/**
 * The k best (smallest) entries seen so far, each a (key, id) pair compared lexicographically (a
 * smaller key wins; equal keys go to the smaller id), kept as a bounded max-heap over typed arrays
 * so the worst kept entry is at the root and a candidate that cannot enter costs one compare. The
 * exact k-NN (key = distance, id = user) and the Hamming k-NN (key = distance · 2³² + tie key) use
 * it. Sifts move a hole instead of swapping pairs: this is an inner loop of every trial.
 */
export class TopK {
  readonly keys: Float64Array;
  readonly ids: Int32Array;
  size = 0;
  constructor(readonly k: number) {
    this.keys = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  reset(): void {
    this.size = 0;
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** The key of the worst kept entry (meaningful once the heap is non-empty; the bound once full). */
  get worstKey(): number {
    return this.keys[0];
  }

  /** Whether (key, id) would be kept: the heap is not full, or it beats the worst kept entry. */
  accepts(key: number, id: number): boolean {
    if (this.size < this.k) return true;
    const w = this.keys[0];
    return key < w || (key === w && id < this.ids[0]);
  }

  offer(key: number, id: number): void {
    const { keys, ids } = this;
    if (this.size < this.k) {
      // sift the new entry up from the last leaf
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        const kp = keys[p];
        if (kp > key || (kp === key && ids[p] > id)) break;
        keys[i] = kp;
        ids[i] = ids[p];
        i = p;
      }
      keys[i] = key;
      ids[i] = id;
      return;
    }
    const w = keys[0];
    if (key > w || (key === w && id >= this.ids[0])) return;
    this.siftDown(key, id, this.size);
  }

  /** Puts (key, id) at the root and restores the heap over the first n entries. */
  private siftDown(key: number, id: number, n: number): void {
    const { keys, ids } = this;
    let i = 0;
    for (;;) {
      let ch = 2 * i + 1;
      if (ch >= n) break;
      const r = ch + 1;
      if (r < n && (keys[r] > keys[ch] || (keys[r] === keys[ch] && ids[r] > ids[ch]))) ch = r;
      const kc = keys[ch];
      if (kc < key || (kc === key && ids[ch] < id)) break;
      keys[i] = kc;
      ids[i] = ids[ch];
      i = ch;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Writes the kept ids (and keys, when asked) best first at `offset`, and empties the heap. */
  drain(outIds: Int32Array, outKeys: Float64Array | null, offset: number): void {
    const { keys, ids } = this;
    for (let n = this.size; n > 0; n--) {
      outIds[offset + n - 1] = ids[0];
      if (outKeys) outKeys[offset + n - 1] = keys[0];
      this.siftDown(keys[n - 1], ids[n - 1], n - 1);
    }
    this.size = 0;
  }
}
