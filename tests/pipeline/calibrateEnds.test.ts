/**
 * calibrate's end-of-run summary (src/pipeline/calibrateEnds.ts): one line per crossing saying whether
 * it is bracketed (within 5%, or an end near T) and, for each one that is not, why (none, the
 * noise-free limit, flat with its evidence, the rounds run out), then the totals.
 */
import { describe, expect, it } from 'vitest';
import { endLines, endReason, isBracketed } from '../../src/pipeline/calibrateEnds.js';
import type { CrossingEnd } from '../../src/pipeline/calibrate.js';

const end = (over: Partial<CrossingEnd>): CrossingEnd => ({
  dataset: 'ml',
  n: 1000,
  kappa: 20,
  label: 'vmf',
  target: 'reid1 ≤ 0.01',
  state: 'bracketed',
  bracket: [80, 83],
  xi: 81.234,
  binding: { name: 'reid1', target: 0.01 },
  evidence: null,
  ...over,
});

describe('calibrate: where each crossing’s search ended', () => {
  it('says bracketed or, with the reason, not', () => {
    expect(endReason(end({}))).toBe('bracketed within 5%: ξ* 81.2 in [80, 83]');
    expect(endReason(end({ state: 'near', bracket: [80, 160] }))).toBe('bracketed (an end within max(2 SE, 0.1 T) of T): ξ* 81.2 in [80, 160]');
    expect(endReason(end({ state: 'near', bracket: [160, 160], xi: 160 }))).toBe('bracketed (an end within max(2 SE, 0.1 T) of T): ξ* 160 (the top)');
    expect(endReason(end({ state: 'none', bracket: null, xi: Number.NaN }))).toBe('not bracketed: none (even the smallest ξ exceeds reid1 ≤ 0.01)');
    expect(endReason(end({ state: 'ceiling', bracket: [20, 20], xi: 20, evidence: { from: 0.0062, to: 0.0062, xiFrom: 20, xiTo: 20, se: 0.00041 } }))).toBe(
      "not bracketed: no crossing: the noise-free limit meets T (clean lsh's reid1 0.0062 ± 0.00041 ≤ 0.01; the entry's success rises to it at most)",
    );
    expect(endReason(end({ state: 'flat', bracket: [80, 80], xi: 80, evidence: { from: 0.0071, to: 0.0075, xiFrom: 20, xiTo: 80, se: 0.0009 } }))).toBe(
      'not bracketed: flat below T (reid1 0.0071 at ξ 20 to 0.0075 at ξ 80, within 2 SE: 0.0009)',
    );
    expect(endReason(end({ state: 'beyond', bracket: [5120, 5120], xi: 5120 }))).toBe('not bracketed: the rounds ran out (ξ* 5120 (the top), every ξ meets T: the crossing lies above)');
    expect(endReason(end({ state: 'step', bracket: [80, 160] }))).toBe('not bracketed: the rounds ran out (ξ* 81.2 in [80, 160])');
    expect(['bracketed', 'near', 'resolution'].map((state) => isBracketed(end({ state: state as CrossingEnd['state'] })))).toEqual([true, true, true]);
  });

  it('ends with the totals', () => {
    const ends = [end({}), end({ state: 'near' }), end({ state: 'none', bracket: null }), end({ state: 'beyond', bracket: [40, 40] }), end({ state: 'step' })];
    const lines = endLines(ends);
    expect(lines.length).toBe(6);
    expect(lines[0]).toBe('ml n 1000 κ 20 vmf (reid1 ≤ 0.01): bracketed within 5%: ξ* 81.2 in [80, 83]');
    expect(lines[5]).toBe('calibrate: 2 of 5 crossings bracketed (1 within 5%, 1 near T); not bracketed: 1 none, 2 rounds ran out');
  });
});
