import { describe, expect, it } from 'vitest';
import { sharedFloat64, sharedInt32 } from '../../src/util/shared.js';

describe('shared typed arrays', () => {
  it('are zero-filled arrays of the asked length on a SharedArrayBuffer', () => {
    const i = sharedInt32(5);
    const f = sharedFloat64(3);
    expect(i).toBeInstanceOf(Int32Array);
    expect(f).toBeInstanceOf(Float64Array);
    expect(i.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(f.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...i]).toEqual([0, 0, 0, 0, 0]);
    expect([...f]).toEqual([0, 0, 0]);
    expect(sharedInt32(0).length).toBe(0);
  });
});
