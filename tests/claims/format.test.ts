/**
 * The claims as text (src/claims/format.ts): the share of cells every view prints beside a verdict,
 * and the scorecard that uses it.
 */
import { describe, it, expect } from 'vitest';
import { claimShare, claimsJson, claimsMarkdown, verdictWithShare } from '../../src/claims/format.js';
import type { ClaimResult } from '../../src/claims/types.js';

const result = (over: Partial<ClaimResult>): ClaimResult => ({
  id: 'lshrr-beats-random-at-xi-2',
  dataset: 'ds',
  verdict: 'supported',
  statement: 'LSHRR at ξ = 2 beats the random hash',
  cells_tested: 36,
  cells_for: 1,
  cells_against: 0,
  detail: 'd',
  ...over,
});

describe('the share of cells beside a verdict', () => {
  it('says how many cells of how many were for and against', () => {
    expect(verdictWithShare(result({}))).toBe('supported (1 of 36 cells for, none against)');
    expect(verdictWithShare(result({ verdict: 'contradicted', cells_for: 2, cells_against: 3 }))).toBe('contradicted (2 of 36 cells for, 3 against)');
    expect(verdictWithShare(result({ verdict: 'inconclusive', cells_for: 0 }))).toBe('inconclusive (0 of 36 cells for, none against)');
    expect(claimShare(result({ cells_tested: 1, cells_for: 1 }))).toBe('1 of 1 cell for, none against');
    expect(verdictWithShare(result({ verdict: 'not-tested', cells_tested: 0, cells_for: 0 }))).toBe('not-tested (no cell tested)');
  });

  it('the scorecard prints it in the verdict column; claims.json keeps the bare verdict', () => {
    const rows = [result({}), result({ id: 'lshrr-beats-laplsh', verdict: 'contradicted', cells_for: 0, cells_against: 4 })];
    const md = claimsMarkdown(rows, 0.05);
    expect(md).toContain('| lshrr-beats-random-at-xi-2 | supported (1 of 36 cells for, none against) | 36 | 1 | 0 | d |');
    expect(md).toContain('| lshrr-beats-laplsh | contradicted (0 of 36 cells for, 4 against) | 36 | 0 | 4 | d |');
    const json = JSON.parse(claimsJson(rows)) as { claims: { verdict: string }[] };
    expect(json.claims.map((c) => c.verdict)).toEqual(['supported', 'contradicted']);
  });
});
