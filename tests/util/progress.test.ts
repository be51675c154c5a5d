import { describe, it, expect } from 'vitest';
import { createProgress, estimateRemainingMs, formatCount, formatDuration, type ProgressOptions } from '../../src/util/progress.js';

/** A log-mode progress on a fake clock and a fake interval timer, recording every line. */
function harness(extra: Partial<ProgressOptions> = {}) {
  const lines: string[] = [];
  let t = 1_000_000;
  const ticks: (() => void)[] = [];
  let cancelled = 0;
  const p = createProgress({
    isTTY: false,
    write: (s) => lines.push(...s.split('\n').filter((l) => l !== '')),
    now: () => t,
    schedule: (tick) => {
      ticks.push(tick);
      return () => void cancelled++;
    },
    ...extra,
  });
  return {
    p,
    lines,
    advance: (ms: number) => {
      t += ms;
    },
    tick: () => ticks.at(-1)?.(),
    timers: () => ticks.length,
    cancelled: () => cancelled,
  };
}

describe('number and duration formats', () => {
  it('groups thousands with commas whatever the locale', () => {
    expect([0, 999, 1260, 25_000_095].map(formatCount)).toEqual(['0', '999', '1,260', '25,000,095']);
  });
  it('writes seconds, minutes and hours', () => {
    expect([0, 400, 42_000, 60_000, 65_000, 3_599_000, 3_725_000].map(formatDuration)).toEqual(['0s', '0s', '42s', '1m 00s', '1m 05s', '59m 59s', '1h 02m']);
  });
  it('scales the elapsed time by remaining over done cost', () => {
    expect(estimateRemainingMs(10_000, 0, 100)).toBeNull();
    expect(estimateRemainingMs(10_000, 25, 100)).toBe(30_000);
    expect(estimateRemainingMs(10_000, 100, 100)).toBe(0);
  });
});

describe('progress without a terminal', () => {
  it('prints the start line, a line per further 10% of the work, and nothing at the end', () => {
    const h = harness();
    h.p.start('results', 1260, { startLine: 'computing 1,260 results in 62 cells on 2 threads' });
    for (let i = 0; i < 1260; i++) {
      h.advance(10); // 12.6 s in all: only the 10% steps print (5 s interval never reached between them)
      h.p.increment();
    }
    h.p.stop();
    expect(h.lines[0]).toBe('computing 1,260 results in 62 cells on 2 threads');
    expect(h.lines.slice(1)).toEqual([
      'results: 126/1,260 done (10%), 1s elapsed, eta 11s',
      'results: 252/1,260 done (20%), 3s elapsed, eta 10s',
      'results: 378/1,260 done (30%), 4s elapsed, eta 9s',
      'results: 504/1,260 done (40%), 5s elapsed, eta 8s',
      'results: 630/1,260 done (50%), 6s elapsed, eta 6s',
      'results: 756/1,260 done (60%), 8s elapsed, eta 5s',
      'results: 882/1,260 done (70%), 9s elapsed, eta 4s',
      'results: 1,008/1,260 done (80%), 10s elapsed, eta 3s',
      'results: 1,134/1,260 done (90%), 11s elapsed, eta 1s',
    ]);
    expect(h.cancelled()).toBe(1);
  });

  it('prints a line every interval while work goes on, and from the timer while nothing finishes', () => {
    const h = harness({ intervalMs: 5000 });
    h.p.start('cells', 1000, { startLine: 'go' });
    h.advance(4999);
    h.p.increment(); // 0.1%: neither 10% nor 5 s
    h.advance(1);
    h.p.increment(); // 5 s since the start line
    h.advance(5000);
    h.tick(); // nothing finished, but the interval passed: the timer prints
    h.advance(1000);
    h.tick(); // too soon
    expect(h.lines).toEqual(['go', 'cells: 2/1,000 done (0%), 5s elapsed, eta 41m 35s', 'cells: 2/1,000 done (0%), 10s elapsed, eta 1h 23m']);
  });

  it('bases the ETA on the cost model, so it does not jump between cheap and costly units', () => {
    // 40 units: costs cycle 1, 1, 1, 37 (the pattern of cells of very different cost); the time
    // per unit of cost is constant, so the exact remaining time is known at every line
    const costs = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? 37 : 1));
    const totalCost = costs.reduce((a, b) => a + b, 0);
    const msPerCost = 100;
    const h = harness({ intervalMs: 1000, minGapMs: 1000 });
    h.p.start('cells', costs.length, { totalCost, startLine: 'start' });
    let spent = 0;
    const truth: string[] = [];
    costs.forEach((c, i) => {
      h.advance(c * msPerCost);
      spent += c;
      const before = h.lines.length;
      h.p.increment(1, c);
      if (h.lines.length > before)
        truth.push(
          `cells: ${i + 1}/40 done, ${Math.floor((100 * spent) / totalCost)}% of the work, ${formatDuration(spent * msPerCost)} elapsed, eta ${formatDuration((totalCost - spent) * msPerCost)}`,
        );
    });
    expect(truth.length).toBeGreaterThan(5);
    expect(h.lines.slice(1)).toEqual(truth);
    // a count-based ETA would have said 39 × 0.1 s = 4s after the first cheap unit, against 40 × 3.7 s
    const count = harness({ intervalMs: 0, minGapMs: 0 });
    count.p.start('cells', 40, { startLine: 'start' });
    count.advance(100);
    count.p.increment();
    expect(count.lines[1]).toBe('cells: 1/40 done (2%), 0s elapsed, eta 4s');
  });

  it('takes the mean unit cost for increments without a cost, and update() sets absolute values', () => {
    const h = harness({ intervalMs: 0, minGapMs: 0 });
    h.p.start('cells', 10, { totalCost: 1000, startLine: 's' });
    h.advance(2000);
    h.p.increment(2); // 200 of 1000
    h.advance(2000);
    h.p.update(5, 800); // 5 units, 800 of 1000
    expect(h.lines.slice(1)).toEqual(['cells: 2/10 done, 20% of the work, 2s elapsed, eta 8s', 'cells: 5/10 done, 80% of the work, 4s elapsed, eta 1s']);
  });

  it('keeps quick stages without a start line out of the log, and reports long ones', () => {
    const h = harness({ intervalMs: 5000 });
    h.p.start('read ratings.csv', 1_000_000);
    h.advance(3000);
    h.p.increment(900_000); // 90% but under 5 s: silent
    h.p.stop();
    expect(h.lines).toEqual([]);
    h.p.start('read big.csv', 680_000_000);
    h.advance(5000);
    h.p.increment(68_000_000);
    h.advance(100);
    h.p.increment(68_000_000); // 20%, but closer than 1 s to the last line
    h.advance(1000);
    h.p.increment(1);
    expect(h.lines).toEqual(['read big.csv: 68,000,000/680,000,000 done (10%), 5s elapsed, eta 45s', 'read big.csv: 136,000,001/680,000,000 done (20%), 6s elapsed, eta 24s']);
    expect(h.timers()).toBe(2);
    expect(h.cancelled()).toBe(1);
  });

  it('prints nothing at all when quiet', () => {
    const lines: string[] = [];
    const p = createProgress({ quiet: true, isTTY: false, write: (s) => void lines.push(s) });
    p.start('cells', 10, { startLine: 'go' });
    p.increment(5);
    p.stop();
    expect(lines).toEqual([]);
  });

  it('on a terminal prints the start line above the bar', () => {
    const lines: string[] = [];
    const p = createProgress({ isTTY: true, write: (s) => void lines.push(s), now: () => 0 });
    p.start('cells', 3, { totalCost: 30, startLine: 'computing 3 results in 1 cell on 1 thread' });
    p.increment(1, 10);
    p.update(3, 30);
    p.stop();
    expect(lines).toEqual(['computing 3 results in 1 cell on 1 thread\n']);
  });
});
