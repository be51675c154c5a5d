import { describe, it, expect } from 'vitest';
import { whenThreadFree } from '../../src/machinery/compute.js';

describe('whenThreadFree', () => {
  it('calls once, when fewer trial cells are left than threads', () => {
    const calls: number[] = [];
    const finished = whenThreadFree(3, 2, () => calls.push(calls.length));
    finished(0); // the trial cells start: 3 left on 2 threads
    expect(calls).toEqual([]);
    finished(1); // 2 left: both threads still compute
    expect(calls).toEqual([]);
    finished(1); // 1 left: a thread is free
    expect(calls).toEqual([0]);
    finished(1);
    finished(0);
    expect(calls).toEqual([0]);
  });

  it('calls at once when the cells are fewer than the threads; on one thread once the last has finished', () => {
    let called = 0;
    whenThreadFree(1, 2, () => called++)(0);
    expect(called).toBe(1);
    const never = whenThreadFree(4, 1, () => called++);
    for (let i = 0; i < 3; i++) never(1);
    expect(called).toBe(1);
    never(1);
    expect(called).toBe(2);
    expect(() => whenThreadFree(2, 2)(2)).not.toThrow();
  });
});
