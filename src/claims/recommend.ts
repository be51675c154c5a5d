/**
 * lshdp's claims on recommendations (config `recommend`, docs/RECOMMEND.md; rules in
 * docs/RESULTS.md): NDCG@N of the top-N lists made from each mechanism's neighbours, per trial.
 * They are evaluated only for a folder that has recommendation values, after the paper's claims,
 * and pick their series by the mechanisms' roles like those (grid.ts), never by name. The
 * baselines are told by what they lack: `pop` has no neighbours (k null), `exact` no hash (κ and
 * ξ null), like vanilla LSH no ξ.
 */
import { pairedTTest } from '../stats/tTests.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { holm } from '../stats/holm.js';
import { decide, needs, notTested, type ClaimDefinition, type DatasetContext, type Outcome } from './family.js';
import { directionalCell, distinct, equivalenceCell, isLaplsh, isLsh, isLshrr, isLshrrPaper, pairedSamples, type RecommendSeries } from './grid.js';
import { familyVerdict, formatDiff, verdictNotes, verdictOf, zeroVarianceNote, type CellTest } from './rule.js';

/** Equivalence margin of `recommend-converges-to-lsh`, in NDCG (absolute). */
export const NDCG_MARGIN = 0.01;
/** The list length and the number of neighbours the issue's single-number claims prefer. */
export const PREFERRED_TOP = RECOMMEND_FACTS.headline.top;
export const PREFERRED_K = RECOMMEND_FACTS.headline.k;

const isPop = (s: RecommendSeries): boolean => s.k === null;

/** "n=100 κ=20 k=10 N=10 ξ=2" (parts that are null are left out, ξ on request). */
function placeOf(s: RecommendSeries, opts: { xi?: boolean; k?: boolean; top?: boolean } = {}): string {
  const parts = [`n=${s.n}`];
  if (s.kappa !== null) parts.push(`κ=${s.kappa}`);
  if (opts.k !== false && s.k !== null) parts.push(`k=${s.k}`);
  if (opts.top !== false) parts.push(`N=${s.top}`);
  if (opts.xi !== false && s.xi !== null) parts.push(`ξ=${s.xi}`);
  return parts.join(' ');
}

/** N = 10 when the grid has it, else the smallest N; with the note a detail adds when it is not 10. */
function chosenTop(series: readonly RecommendSeries[]): { top: number | undefined; note: string[] } {
  const tops = distinct(series.map((s) => s.top));
  const top = tops.includes(PREFERRED_TOP) ? PREFERRED_TOP : tops[0];
  return { top, note: top === undefined || top === PREFERRED_TOP ? [] : [`N = ${top}: the grid has no N = ${PREFERRED_TOP}`] };
}

const sameCell = (a: RecommendSeries, b: RecommendSeries) => a.n === b.n && a.kappa === b.kappa && a.k === b.k && a.top === b.top;

// ------------------------------------------------------------------ the claims

const beatsLaplsh: ClaimDefinition = {
  id: 'recommend-lshrr-beats-laplsh',
  evaluation: 'recommend',
  angular: false,
  statement: "lshdp's own, the recommendations' twin of lshrr-beats-laplsh: top-N lists made from LSHRR's neighbours have higher NDCG@N than from LapLSH's for n ≥ 100, at every κ, k, N and ξ > 0.",
  evaluate(ctx) {
    const rr = ctx.recommendSeries.filter((s) => isLshrrPaper(s) && !isPop(s));
    const lap = ctx.recommendSeries.filter((s) => isLaplsh(s) && !isPop(s));
    const missing = needs([
      [rr.length > 0, 'an lshrr entry with the paper accountant'],
      [lap.length > 0, 'a laplsh entry'],
    ]);
    if (missing) return notTested(missing);
    const several = new Set(rr.map((s) => s.mechanism)).size > 1 || new Set(lap.map((s) => s.mechanism)).size > 1;
    // same n, κ and trial: both answer from the trial's hyperplanes, a paired test
    const cells = rr
      .filter((a) => a.n >= 100 && a.xi !== null && a.xi > 0)
      .flatMap((a) => lap.filter((b) => sameCell(a, b) && b.xi === a.xi).map((b) => ({ a, b })))
      .map(({ a, b }) => directionalCell(`${placeOf(a)}${several ? ` [${a.mechanism} vs ${b.mechanism}]` : ''}`, pairedSamples(a.byTrial, b.byTrial), true, 'above'));
    const whenEmpty =
      needs([
        [rr.some((s) => s.n >= 100), 'n ≥ 100'],
        [rr.some((s) => s.xi !== null && s.xi > 0), 'ξ > 0'],
      ]) ?? 'needs lshrr and laplsh at the same n ≥ 100, κ, k, N and ξ > 0';
    return decide(cells, ctx, { forWord: 'LSHRR higher NDCG', againstWord: 'lower', tests: 'one-sided paired t-tests over trials' }, whenEmpty);
  },
};

const convergesToLsh: ClaimDefinition = {
  id: 'recommend-converges-to-lsh',
  evaluation: 'recommend',
  angular: false,
  statement: `lshdp's own: at the largest ξ of the grid, LSHRR's NDCG@${PREFERRED_TOP} is within ±${NDCG_MARGIN} of vanilla LSH's at the same n, κ and k (each LSHRR entry; TOST).`,
  evaluate(ctx) {
    const rr = ctx.recommendSeries.filter((s) => isLshrr(s) && !isPop(s) && s.xi !== null);
    const lsh = ctx.recommendSeries.filter((s) => isLsh(s) && !isPop(s));
    const missing = needs([
      [rr.length > 0, 'an lshrr entry'],
      [lsh.length > 0, 'an lsh entry'],
    ]);
    if (missing) return notTested(missing);
    const { top, note } = chosenTop(rr);
    const several = new Set(rr.map((s) => s.mechanism)).size > 1;
    // the largest ξ of each LSHRR entry
    const largest = new Map<string, number>();
    for (const s of rr) largest.set(s.mechanism, Math.max(largest.get(s.mechanism) ?? -Infinity, s.xi!));
    const cells = rr
      .filter((a) => a.top === top && a.xi === largest.get(a.mechanism))
      .flatMap((a) => lsh.filter((b) => sameCell(a, b)).map((b) => ({ a, b })))
      // LSHRR and LSH share the trial's hyperplanes: paired TOST
      .map(({ a, b }) => equivalenceCell(`${placeOf(a)}${several ? ` [${a.mechanism}]` : ''}`, pairedSamples(a.byTrial, b.byTrial), true, NDCG_MARGIN));
    return decide(
      cells,
      ctx,
      { forWord: `within ±${NDCG_MARGIN} of LSH`, againstWord: 'beyond the margin', tests: `TOST with paired t-tests over trials, margin ±${NDCG_MARGIN} NDCG@${top}` },
      `needs lshrr and lsh at the same n, κ, k and N = ${top}`,
      'equivalence',
      note,
    );
  },
};

/** One (n, κ, mechanism) of `recommend-beats-pop`: its ξ ascending, each tested against pop. */
interface PopGroup {
  label: string;
  mechanism: string;
  series: RecommendSeries[];
  pop: number;
}

/** The (n, κ, mechanism) groups at (k, N), each with the pop value of its n, in first-seen order. */
function popGroups(ctx: DatasetContext, k: number, top: number): PopGroup[] {
  const popAt = new Map<number, number>();
  // pop has one trial (recommend.csv's trials 1); a mean all the same, should it ever have more
  const mean = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0) / m.size;
  for (const s of ctx.recommendSeries) if (isPop(s) && s.top === top) popAt.set(s.n, mean(s.byTrial));
  const groups = new Map<string, PopGroup>();
  for (const s of ctx.recommendSeries) {
    if (isPop(s) || s.xi === null || s.k !== k || s.top !== top || !popAt.has(s.n)) continue;
    const label = `${placeOf(s, { xi: false, k: false, top: false })} [${s.mechanism}]`;
    const g = groups.get(label) ?? { label, mechanism: s.mechanism, series: [], pop: popAt.get(s.n)! };
    g.series.push(s);
    groups.set(label, g);
  }
  for (const g of groups.values()) g.series.sort((a, b) => a.xi! - b.xi!);
  return [...groups.values()];
}

/**
 * A group's tests: per ξ a one-sided one-sample t of the per-trial NDCG against pop's value (a
 * constant: pop uses no randomness of a trial); Holm over the ξ; the threshold is the smallest ξ
 * from which every larger ξ is rejected (undefined: the largest is not). Null with < 2 trials.
 */
export function popThreshold(series: readonly { xi: number | null; byTrial: Map<number, number> }[], pop: number, alpha: number) {
  const tests = series.map((s) => {
    const a = [...s.byTrial.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
    return a.length >= 2
      ? pairedTTest(
          a,
          a.map(() => pop),
        )
      : null;
  });
  if (tests.length === 0 || tests.some((t) => t === null)) return null;
  const h = holm(
    tests.map((t) => t!.pAbove),
    alpha,
  );
  let from: number | undefined;
  for (let i = series.length - 1; i >= 0 && h.rejected[i]; i--) from = series[i].xi!;
  const last = tests[tests.length - 1]!;
  return { from, adjustedAtLargest: h.adjusted[h.adjusted.length - 1], largest: last };
}

const beatsPop: ClaimDefinition = {
  id: 'recommend-beats-pop',
  evaluation: 'recommend',
  angular: false,
  statement: `lshdp's own: recommendations from a private mechanism's neighbours beat the popularity baseline (pop) from some ξ of the grid on; per n, κ and mechanism at k = ${PREFERRED_K} and N = ${PREFERRED_TOP} (else the largest k and the smallest N), the detail names the smallest ξ from which every larger ξ of the grid has NDCG@N significantly above pop's ("never" where none).`,
  evaluate(ctx) {
    const pop = ctx.recommendSeries.filter(isPop);
    const ranked = ctx.recommendSeries.filter((s) => !isPop(s) && s.xi !== null);
    const missing = needs([
      [pop.length > 0, 'the pop baseline'],
      [ranked.length > 0, 'a mechanism with ξ'],
    ]);
    if (missing) return notTested(missing);
    const ks = distinct(ranked.map((s) => s.k));
    const k = ks.includes(PREFERRED_K) ? PREFERRED_K : ks[ks.length - 1];
    const { top, note } = chosenTop(ranked);
    const groups = popGroups(ctx, k, top!);
    if (groups.length === 0) return notTested(`needs pop and a mechanism with ξ at the same n and N = ${top}`);
    return popOutcome(ctx, groups, { k, top: top!, notes: [...(k === PREFERRED_K ? [] : [`k = ${k}: the grid has no k = ${PREFERRED_K}`]), ...note] });
  },
};

/**
 * The verdict of `recommend-beats-pop` over its groups: a group is for when its largest ξ is
 * above pop after Holm over its ξ and then over the groups (so a false "supported" has
 * probability ≤ α), against when its largest ξ is significantly below pop (Holm over the
 * groups). Supported: some group is for and none against (an existence claim; with power, as
 * every claim); mixed: some for and some against; contradicted: none is for, and every group is
 * against; inconclusive otherwise.
 */
function popOutcome(ctx: DatasetContext, groups: PopGroup[], at: { k: number; top: number; notes: string[] }): Outcome {
  const tested = groups.map((g) => ({ g, t: popThreshold(g.series, g.pop, ctx.alpha) }));
  const usable = tested.filter((x) => x.t !== null);
  const skipped = tested.length - usable.length;
  if (usable.length === 0) return notTested('needs at least 2 trials per cell (per-trial values)');
  const cells: CellTest[] = usable.map(({ g, t }) => ({
    where: g.label,
    kind: 'paired',
    pFor: t!.adjustedAtLargest,
    pAgainst: t!.largest.pBelow,
    zeroVariance: t!.largest.zeroVariance,
    diff: t!.largest.diff,
  }));
  const out = familyVerdict(cells, ctx.alpha);
  // an existence claim: one group for is enough, and every group against contradicts it
  const verdict = out.forCount > 0 ? verdictOf(out, true) : out.againstCount === out.tested ? 'contradicted' : 'inconclusive';
  // per mechanism: the threshold of each (n, κ) group counted for, "never" for the others
  const perMechanism = new Map<string, string[]>();
  usable.forEach(({ g, t }, i) => {
    const place = g.label.replace(/ \[.*\]$/, '');
    const said = out.cells[i].isFor ? `from ξ = ${t!.from}` : out.cells[i].isAgainst ? 'never (below pop at the largest ξ)' : 'never';
    perMechanism.set(g.mechanism, [...(perMechanism.get(g.mechanism) ?? []), `${place} ${said}`]);
  });
  const named = [...perMechanism].map(([m, places]) => `${m}: ${places.join(', ')}`).join('; ');
  const pops = distinct(groups.map((g) => g.series[0].n)).map((n) => `n=${n} ${Number(groups.find((g) => g.series[0].n === n)!.pop.toPrecision(3))}`);
  const strongest = out.cells.filter((c) => c.isFor).sort((a, b) => a.pForHolm - b.pForHolm)[0];
  const detail = [
    `k = ${at.k}, N = ${at.top}: above pop from some ξ in ${out.forCount} of ${out.tested} (n, κ, mechanism), below pop at the largest ξ in ${out.againstCount} (one-sided one-sample t-tests over trials against pop's value, Holm over the ξ, then over the groups, α = ${ctx.alpha})`,
    named,
    `pop NDCG@${at.top}: ${pops.join(', ')}`,
    ...(strongest ? [`strongest at the largest ξ: ${strongest.where} (Δ = ${formatDiff(strongest.diff)})`] : []),
    ...(out.zeroVariance > 0 ? [`${zeroVarianceNote(out.zeroVariance, 'group')} at the largest ξ`] : []),
    ...verdictNotes({ ...out, verdict }),
    ...(skipped > 0 ? [`${skipped} skipped: fewer than 2 trials`] : []),
    ...at.notes,
  ];
  return { verdict, cells_tested: out.tested, cells_for: out.forCount, cells_against: out.againstCount, detail: detail.join('; ') };
}

/** The recommendation claims, in report order (`RECOMMEND_CLAIM_IDS`). */
export const RECOMMEND_CLAIMS: readonly ClaimDefinition[] = [beatsLaplsh, convergesToLsh, beatsPop];
