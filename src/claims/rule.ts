/**
 * The rule that turns a claim's cells into a verdict (issue 12). A comparative claim is a family of
 * one-sided tests, one per grid cell. Holm's correction is applied at family-wise level α to the
 * p-values "for" the claim and, separately, to the p-values "against" it, so neither a false
 * "supported" nor a false "contradicted" happens with probability above α when no cell has an effect.
 * - mixed: some cell is significant for the claim and some against it (the detail names the
 *   groups of cells that go each way);
 * - contradicted: some cell is significant against the claim and none for it;
 * - supported: none is against and at least one is for (equivalence claims: every cell is shown
 *   equivalent), and at least half the cells have power: a cell has power when the smallest
 *   "for" p-value its test can attain is at or below its Holm threshold (α/(m − i) at its place i
 *   in Holm's order; equivalence: α), so a claim never reads supported on a few cells where most
 *   could not have been significant (the detail says what it rests on);
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
  /** which test produced the p-values; `exact` for a comparison of population values; `bootstrap` for a paired test over bootstrap resamples of the trials (the matched claims) */
  kind: TestKind | 'exact' | 'bootstrap';
  /** one-sided p-value for the claim (exact cells: 0 when the claim holds in the cell, else 1) */
  pFor: number;
  /** one-sided p-value against the claim (exact cells: 0 when the cell goes the other way, else 1) */
  pAgainst: number;
  /** the paired differences, or both samples, had no variance: the t test's limit (stats/tTests.ts) */
  zeroVariance: boolean;
  /**
   * the smallest "for" p-value the cell's test can attain (default 0: a t test's as its effect
   * grows against its spread, or an exact comparison's); a cell whose construction fixes its
   * "for" p-value at 1 says 1
   */
  minPFor?: number;
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
  /** the smallest attainable "for" p-value is at or below the cell's Holm threshold */
  hasPower: boolean;
}

export interface FamilyOutcome {
  verdict: Verdict;
  cells: ScoredCell[];
  tested: number;
  forCount: number;
  againstCount: number;
  zeroVariance: number;
  /** cells with power (see `ScoredCell.hasPower`) */
  powered: number;
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
  const threshold = holmThresholds(pFor, alpha, mode);
  const scored: ScoredCell[] = cells.map((c, i) => ({
    ...c,
    pForHolm: hFor.adjusted[i],
    pAgainstHolm: hAgainst.adjusted[i],
    isFor: hFor.rejected[i],
    isAgainst: hAgainst.rejected[i],
    hasPower: (c.minPFor ?? 0) <= threshold[i],
  }));
  const forCount = scored.filter((c) => c.isFor).length;
  const againstCount = scored.filter((c) => c.isAgainst).length;
  const powered = scored.filter((c) => c.hasPower).length;
  const holds = mode === 'equivalence' ? forCount === cells.length : forCount > 0;
  return {
    verdict: verdictOf({ tested: cells.length, forCount, againstCount, powered }, holds),
    cells: scored,
    tested: cells.length,
    forCount,
    againstCount,
    zeroVariance: cells.filter((c) => c.zeroVariance).length,
    powered,
    mode,
  };
}

/** Each cell's Holm threshold for its "for" p-value: α/(m − i) at its place i in Holm's (stable) order; equivalence: α. */
function holmThresholds(pFor: readonly number[], alpha: number, mode: FamilyMode): number[] {
  const m = pFor.length;
  const out = new Array<number>(m).fill(alpha);
  if (mode === 'equivalence') return out;
  const order = pFor.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  order.forEach(({ i }, rank) => {
    out[i] = alpha / (m - rank);
  });
  return out;
}

/**
 * The verdict from a family's counts (the rule of the file comment): `holds` says whether the
 * cells for are enough for the claim (directional: one; equivalence: all).
 */
export function verdictOf(c: { tested: number; forCount: number; againstCount: number; powered: number }, holds: boolean): Verdict {
  if (c.tested === 0) return 'not-tested';
  if (c.forCount > 0 && c.againstCount > 0) return 'mixed';
  if (c.againstCount > 0) return 'contradicted';
  return holds && 2 * c.powered >= c.tested ? 'supported' : 'inconclusive';
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
  if (out.zeroVariance > 0) parts.push(zeroVarianceNote(out.zeroVariance, 'cell'));
  parts.push(...verdictNotes(out));
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

/** "3 cells without variance (…)": how the t test's limit decided them. */
export function zeroVarianceNote(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} without variance (the t test's limit: p = 0 where every trial is beyond, else 1)`;
}

/** "n=100 κ=20" from a cell's place (its part, n, κ and entry label), the unit a mixed verdict names. */
function groupOf(c: CellTest): string {
  const found = [c.part, /(?:^|\s)(n=\S+)/.exec(c.where)?.[1], /κ=\S+/.exec(c.where)?.[0], /\[[^\]]+\]/.exec(c.where)?.[0]].filter((x) => x !== undefined);
  return found.length ? found.join(' ') : c.where;
}

/** The groups of the cells that are `pick`, with their counts, in first-seen order (at most `show`). */
function groupsOf(cells: readonly ScoredCell[], pick: (c: ScoredCell) => boolean, show = 4): string {
  const counts = new Map<string, number>();
  for (const c of cells) if (pick(c)) counts.set(groupOf(c), (counts.get(groupOf(c)) ?? 0) + 1);
  const listed = [...counts].slice(0, show).map(([g, n]) => `${g} (${n})`);
  const more = counts.size - show;
  return listed.join(', ') + (more > 0 ? `, and ${more} more` : '');
}

/**
 * What a verdict rests on: a mixed family's groups each way; a supported one's cells for among
 * those with power; a family not supported for want of power, how few have it.
 */
export function verdictNotes(out: Pick<FamilyOutcome, 'verdict' | 'cells' | 'tested' | 'forCount' | 'againstCount' | 'powered'>): string[] {
  const unpowered = out.tested - out.powered;
  const without = unpowered > 0 ? ` (${unpowered} cannot reach their Holm threshold)` : '';
  if (out.verdict === 'mixed') return [`mixed: for in ${groupsOf(out.cells, (c) => c.isFor)}; against in ${groupsOf(out.cells, (c) => c.isAgainst)}`];
  const cells = (n: number) => `${n} cell${n === 1 ? '' : 's'}`;
  const power = unpowered > 0 ? `${out.powered} with power${without}` : 'all with power';
  if (out.verdict === 'supported') return [`supported rests on ${cells(out.forCount)} for and none against, of ${cells(out.tested)}, ${power}`];
  if (out.forCount > 0 && out.againstCount === 0 && 2 * out.powered < out.tested) return [`not supported: only ${out.powered} of ${out.tested} cells have power${without}`];
  return [];
}
