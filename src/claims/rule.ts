/**
 * The rule that turns a claim's cells into a verdict (issue 12). A comparative claim is a family of
 * one-sided tests, one per grid cell. Holm's correction is applied at family-wise level α to the
 * p-values "for" the claim and, separately, to the p-values "against" it, so neither a false
 * "supported" nor a false "contradicted" happens with probability above α when no cell has an effect.
 * - contradicted: some cell is significant against the claim;
 * - supported: none is against and at least one is for (equivalence claims: every cell is shown
 *   equivalent);
 * Equivalence claims ("every cell is equivalent") are an intersection–union test: the claim's null
 * ("some cell is not equivalent") is the union of the cells' nulls, rejected at level α exactly when
 * every cell's TOST rejects at α (Berger 1982), so their "for" p-values are NOT Holm-corrected (the
 * correction would only cost power). Their "against" side ("some cell is beyond the margin") is a
 * union of cell tests and keeps Holm.
 * - inconclusive: otherwise; not-tested: no cell at all (the caller names what is missing).
 */
import type { TestKind } from '../stats/tTests.js';
import { holm } from '../stats/holm.js';
import type { Verdict } from './types.js';

export interface CellTest {
  /** where in the grid, e.g. "n=100 κ=20 k=5 ξ=2" */
  where: string;
  /** which test produced the p-values; `exact` for a comparison of population values */
  kind: TestKind | 'exact';
  /** one-sided p-value for the claim (exact cells: 0 when the claim holds in the cell, else 1) */
  pFor: number;
  /** one-sided p-value against the claim (exact cells: 0 when the cell goes the other way, else 1) */
  pAgainst: number;
  /** the paired differences, or both samples, had no variance: no evidence (both p = 1) */
  zeroVariance: boolean;
  /** the effect in the cell, in the claim's own terms (e.g. loss of a minus loss of b) */
  diff: number;
  /** which part of a claim with several parts the cell belongs to (for the detail's counts) */
  part?: string;
}

export interface ScoredCell extends CellTest {
  /** the "for" p-value after Holm (equivalence claims: the cell's own TOST p-value, no correction) */
  pForHolm: number;
  pAgainstHolm: number;
  isFor: boolean;
  isAgainst: boolean;
}

export interface FamilyOutcome {
  verdict: Verdict;
  cells: ScoredCell[];
  tested: number;
  forCount: number;
  againstCount: number;
  zeroVariance: number;
  /** how the "for" side was decided (equivalence: intersection–union, no correction) */
  mode: FamilyMode;
}

export type FamilyMode = 'directional' | 'equivalence';

/** Holm over the family in both directions (equivalence: against only), then the verdict rule above. */
export function familyVerdict(cells: readonly CellTest[], alpha: number, mode: FamilyMode = 'directional'): FamilyOutcome {
  const pFor = cells.map((c) => c.pFor);
  // intersection–union: each cell's TOST at level alpha as it stands (see the file comment)
  const hFor = mode === 'equivalence' ? { adjusted: pFor, rejected: pFor.map((p) => p <= alpha) } : holm(pFor, alpha);
  const hAgainst = holm(
    cells.map((c) => c.pAgainst),
    alpha,
  );
  const scored: ScoredCell[] = cells.map((c, i) => ({
    ...c,
    pForHolm: hFor.adjusted[i],
    pAgainstHolm: hAgainst.adjusted[i],
    isFor: hFor.rejected[i],
    isAgainst: hAgainst.rejected[i],
  }));
  const forCount = scored.filter((c) => c.isFor).length;
  const againstCount = scored.filter((c) => c.isAgainst).length;
  let verdict: Verdict;
  if (cells.length === 0) verdict = 'not-tested';
  else if (againstCount > 0) verdict = 'contradicted';
  else if (mode === 'equivalence' ? forCount === cells.length : forCount > 0) verdict = 'supported';
  else verdict = 'inconclusive';
  return {
    verdict,
    cells: scored,
    tested: cells.length,
    forCount,
    againstCount,
    zeroVariance: cells.filter((c) => c.zeroVariance).length,
    mode,
  };
}

/** A p-value for people: 2 significant digits, "<1e-12" below that. */
export function formatP(p: number): string {
  if (p < 1e-12) return '<1e-12';
  return p >= 0.001 ? String(Number(p.toPrecision(2))) : p.toExponential(1);
}

/** A difference in loss, 3 significant digits with its sign. */
export function formatDiff(x: number): string {
  if (x === 0) return '0';
  const s = String(Number(x.toPrecision(3)));
  return x > 0 ? `+${s}` : s.replace('-', '−');
}

function cellNote(c: ScoredCell, p: number, label = 'Holm p'): string {
  const shown = formatP(p);
  return `${c.where} (Δ = ${formatDiff(c.diff)}, ${label} ${shown.startsWith('<') ? shown.replace('<', '< ') : `= ${shown}`})`;
}

/**
 * The standard detail of a family: counts in the claim's words, the tests used, zero-variance cells
 * and the strongest cells each way (at most `show`).
 */
export function describeFamily(out: FamilyOutcome, words: { forWord: string; againstWord: string; tests: string }, alpha: number, show = 2): string {
  const correction = out.mode === 'equivalence' ? `each cell's TOST at α = ${alpha}, all needed (intersection–union, no correction); against: Holm at α = ${alpha}` : `Holm at α = ${alpha}`;
  const parts = [`${words.forWord} in ${out.forCount} of ${out.tested} cells, ${words.againstWord} in ${out.againstCount} (${words.tests}, ${correction})`];
  if (out.zeroVariance > 0) {
    parts.push(`${out.zeroVariance} cell${out.zeroVariance === 1 ? '' : 's'} without variance (no evidence either way, p = 1)`);
  }
  const against = out.cells.filter((c) => c.isAgainst).sort((a, b) => a.pAgainstHolm - b.pAgainstHolm);
  if (against.length)
    parts.push(
      `against: ${against
        .slice(0, show)
        .map((c) => cellNote(c, c.pAgainstHolm))
        .join('; ')}`,
    );
  const pro = out.cells.filter((c) => c.isFor).sort((a, b) => a.pForHolm - b.pForHolm);
  if (pro.length)
    parts.push(
      `strongest for: ${pro
        .slice(0, show)
        .map((c) => cellNote(c, c.pForHolm, out.mode === 'equivalence' ? 'p' : 'Holm p'))
        .join('; ')}`,
    );
  return parts.join('; ');
}
