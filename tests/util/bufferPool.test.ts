import { describe, expect, it } from 'vitest';
import { BufferPool, freshFloat64 } from '../../src/util/bufferPool.js';

describe('BufferPool', () => {
  it('lends zero-filled arrays, and after reclaim lends the same memory again, zeroed, as a new view', () => {
    const pool = new BufferPool();
    const a = pool.float64(1000);
    expect(a.length).toBe(1000);
    expect(a.every((v) => v === 0)).toBe(true);
    a.fill(7);
    const b = pool.float64(10);
    // lent buffers are not lent twice before reclaim
    expect(b.buffer).not.toBe(a.buffer);
    pool.reclaim();
    const c = pool.float64(900);
    expect(c.buffer).toBe(a.buffer);
    expect(c).not.toBe(a);
    expect(c.length).toBe(900);
    expect(c.every((v) => v === 0)).toBe(true);
  });

  it('takes the smallest free buffer that fits, allocates when none does, and keeps at most four', () => {
    const pool = new BufferPool();
    const big = pool.float64(5000);
    const small = pool.float64(100);
    pool.reclaim();
    expect(pool.float64(50).buffer).toBe(small.buffer);
    expect(pool.float64(60).buffer).toBe(big.buffer);
    const fresh = pool.float64(10_000);
    expect(fresh.buffer).not.toBe(big.buffer);
    pool.reclaim();
    expect(pool.freeBytes).toBe(8 * (5000 + 100 + 10_000));
    for (let i = 0; i < 10; i++) pool.float64(1 + i);
    pool.reclaim();
    // the largest four of the thirteen are kept
    expect(pool.freeBytes).toBe(8 * (10_000 + 5000 + 100 + 10));
    expect(freshFloat64(3)).toEqual(new Float64Array(3));
  });
});
