/**
 * The verdict rule on hand-made p-values: Holm's step-down order within a claim's family, the
 * precedence of "against" over "for", equivalence families, and the detail's wording.
 */
import { describe, it, expect } from 'vitest';
import { familyVerdict, describeFamily, formatP } from '../../src/claims/rule.js';
import type { CellTest } from '../../src/claims/rule.js';

const cell = (pFor: number, pAgainst = 1 - pFor, where = 'c', zeroVariance = false): CellTest => ({ where, kind: 'paired', pFor, pAgainst, zeroVariance, diff: -0.01 });

describe('familyVerdict', () => {
  it('a p-value that wins alone does not win among 15 null cells (α/16 instead of α)', () => {
    expect(familyVerdict([cell(0.01)], 0.05).verdict).toBe('supported');
    const family = [cell(0.01), ...Array.from({ length: 15 }, () => cell(0.5))];
    const out = familyVerdict(family, 0.05);
    expect(out.verdict).toBe('inconclusive');
    expect(out.cells[0].pForHolm).toBeCloseTo(0.16, 12);
  });

  it("follows Holm's order: 0.001, 0.02, 0.04 are all for (step-down), 0.001, 0.03, 0.04 only the first", () => {
    expect(familyVerdict([cell(0.04), cell(0.001), cell(0.02)], 0.05).forCount).toBe(3);
    const out = familyVerdict([cell(0.04), cell(0.001), cell(0.03)], 0.05);
    expect(out.cells.map((c) => c.isFor)).toEqual([false, true, false]);
    expect(out.verdict).toBe('supported');
  });

  it('cells significant both ways make the family mixed, one against and none for contradicts it', () => {
    const out = familyVerdict([cell(1e-6, 1, 'n=100 κ=10 k=1'), cell(1e-6, 1, 'n=100 κ=10 k=5'), cell(0.9999, 1e-5, 'n=50 κ=50 k=1')], 0.05);
    expect(out.forCount).toBe(2);
    expect(out.againstCount).toBe(1);
    expect(out.verdict).toBe('mixed');
    const text = describeFamily(out, { forWord: 'lower', againstWord: 'higher', tests: 't' }, 0.05);
    expect(text).toContain('mixed: for in n=100 κ=10 (2); against in n=50 κ=50 (1)');
    expect(familyVerdict([cell(0.5), cell(0.9999, 1e-5)], 0.05).verdict).toBe('contradicted');
  });

  it('is never supported where most cells have no power (their smallest attainable p cannot reach their Holm threshold)', () => {
    const blind = (where: string): CellTest => ({ ...cell(1, 1, where), minPFor: 1 });
    // 2 cells for and 10 that could never be: not supported, and the detail says why
    const weak = familyVerdict([cell(1e-6, 1, 'a'), cell(1e-6, 1, 'b'), ...Array.from({ length: 10 }, (_, i) => blind(`c${i}`))], 0.05);
    expect(weak.forCount).toBe(2);
    expect(weak.powered).toBe(2);
    expect(weak.verdict).toBe('inconclusive');
    expect(describeFamily(weak, { forWord: 'for', againstWord: 'against', tests: 't' }, 0.05)).toContain('not supported: only 2 of 12 cells have power (10 cannot reach their Holm threshold)');
    // the same 2 beside 2 without power: half have power, supported, and the detail says on what
    const half = familyVerdict([cell(1e-6, 1, 'a'), cell(1e-6, 1, 'b'), blind('c'), blind('d')], 0.05);
    expect(half.verdict).toBe('supported');
    expect(describeFamily(half, { forWord: 'for', againstWord: 'against', tests: 't' }, 0.05)).toContain(
      'supported rests on 2 cells for and none against, of 4 cells, 2 with power (2 cannot reach their Holm threshold)',
    );
    // the threshold is Holm's at the cell's place: a smallest p of 0.02 reaches α/1 as the last of 3 only
    const ranked = familyVerdict([cell(1e-6), cell(1e-6), { ...cell(0.5), minPFor: 0.02 }], 0.05);
    expect(ranked.cells.map((c) => c.hasPower)).toEqual([true, true, true]);
    const first = familyVerdict([{ ...cell(0.001), minPFor: 0.02 }, cell(0.5), cell(0.5)], 0.05);
    expect(first.cells[0].hasPower).toBe(false);
  });

  it('corrects each direction on its own: the against family gets Holm too', () => {
    // against p = 0.03 in a family of 3: 0.03·3 = 0.09 > 0.05, not significant
    const out = familyVerdict([cell(0.5, 0.03), cell(0.5, 0.5), cell(0.5, 0.5)], 0.05);
    expect(out.againstCount).toBe(0);
    expect(out.verdict).toBe('inconclusive');
  });

  it('equivalence families are supported only when every cell is shown equivalent', () => {
    expect(familyVerdict([cell(0.001, 1), cell(0.002, 1)], 0.05, 'equivalence').verdict).toBe('supported');
    expect(familyVerdict([cell(0.001, 1), cell(0.4, 0.6)], 0.05, 'equivalence').verdict).toBe('inconclusive');
    expect(familyVerdict([cell(0.001, 1), cell(1, 0.001)], 0.05, 'equivalence').verdict).toBe('mixed');
    expect(familyVerdict([cell(0.4, 0.6), cell(1, 0.001)], 0.05, 'equivalence').verdict).toBe('contradicted');
  });

  it('equivalence is an intersection–union test: each cell at α, no Holm (which would lose these cells)', () => {
    // four cells each shown equivalent at p = 0.03 < α: Holm would adjust them to 0.12 and leave the
    // claim inconclusive; the intersection–union rule rejects "some cell is not equivalent" at α
    const family = [cell(0.03, 0.97), cell(0.03, 0.97), cell(0.04, 0.96), cell(0.049, 0.95)];
    expect(familyVerdict(family, 0.05, 'directional').forCount).toBe(0); // what Holm gives
    const out = familyVerdict(family, 0.05, 'equivalence');
    expect(out.forCount).toBe(4);
    expect(out.verdict).toBe('supported');
    expect(out.cells.map((c) => c.pForHolm)).toEqual([0.03, 0.03, 0.04, 0.049]);
    // one cell at p = 0.051 is not shown equivalent: the claim is not supported
    expect(familyVerdict([...family, cell(0.051, 0.95)], 0.05, 'equivalence').verdict).toBe('inconclusive');
    // the side against keeps Holm: 0.03 among 3 cells is 0.09 > α, not contradicted
    expect(familyVerdict([cell(0.001, 1), cell(0.001, 1), cell(0.97, 0.03)], 0.05, 'equivalence').verdict).toBe('inconclusive');
    const text = describeFamily(out, { forWord: 'equivalent', againstWord: 'beyond', tests: 'TOST' }, 0.05);
    expect(text).toContain("equivalent in 4 of 4 cells, beyond in 0 (TOST, each cell's TOST at α = 0.05, all needed (intersection–union, no correction); against: Holm at α = 0.05)");
    expect(text).toContain('(Δ = −0.01, p = 0.03)');
  });

  it('an empty family is not-tested', () => {
    expect(familyVerdict([], 0.05).verdict).toBe('not-tested');
  });
});

describe('describeFamily', () => {
  it('gives the counts, the tests, the zero-variance cells and the strongest cells', () => {
    const out = familyVerdict([cell(1e-4, 1, 'n=100 κ=10'), cell(1, 1, 'n=500 κ=10', true), cell(1, 1e-5, 'n=1000 κ=10')], 0.05);
    const text = describeFamily(out, { forWord: 'LSHRR lower', againstWord: 'higher', tests: 'one-sided paired t-tests' }, 0.05);
    expect(text).toContain('LSHRR lower in 1 of 3 cells, higher in 1 (one-sided paired t-tests, Holm at α = 0.05)');
    expect(text).toContain("1 cell without variance (the t test's limit: p = 0 where every trial is beyond, else 1)");
    expect(text).toContain('against: n=1000 κ=10 (Δ = −0.01, Holm p = 3.0e-5)');
    expect(text).toContain('strongest for: n=100 κ=10');
  });

  it('formats p-values with two significant digits', () => {
    expect(formatP(0.04321)).toBe('0.043');
    expect(formatP(0.00012)).toBe('1.2e-4');
    expect(formatP(1e-20)).toBe('<1e-12');
  });
});
