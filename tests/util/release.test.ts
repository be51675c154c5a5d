import { describe, expect, it } from 'vitest';
import { releaseArrays } from '../../src/util/release.js';

describe('releaseArrays', () => {
  it('detaches the buffers of big arrays (their memory goes when the loop turns), every view of them included', async () => {
    const a = new Float64Array(1 << 18); // 2 MB
    const view = new Int32Array(a.buffer, 8, 4);
    const b = new Int32Array(1 << 19).subarray(10, 20); // a view of a 2 MB buffer
    releaseArrays([a, b, undefined]);
    expect(a.buffer.byteLength).toBe(0);
    expect(a.length).toBe(0);
    expect(view.length).toBe(0);
    expect(b.length).toBe(0);
    await new Promise((r) => setImmediate(r));
  });

  it('leaves small arrays (pooled Buffers among them) and shared memory to the collector, untouched', () => {
    const small = new Float64Array(16).fill(3);
    const shared = new Float64Array(new SharedArrayBuffer(1 << 21)).fill(2);
    const pooled = Buffer.from('a small string in the pool');
    const big = Buffer.alloc(1 << 21, 1);
    releaseArrays([small, shared, pooled]);
    expect(small[15]).toBe(3);
    expect(shared.length).toBe(1 << 18);
    expect(shared[0]).toBe(2);
    expect(pooled.toString()).toBe('a small string in the pool');
    // a Buffer of its own memory is an ordinary array: released
    releaseArrays([big]);
    expect(big.length).toBe(0);
  });
});
