/**
 * lshdp's own utility claims (not the paper's): the exact accountant's gain over the paper's, and
 * LSHRR against the directional-privacy mechanisms at equal ξ.
 */
import { isGaussianExpected, isLshrr, isLshrrExact, isLshrrPaper, isPurkayastha, isVmf, pairedSamples, directionalCell, where, type Series } from './grid.js';
import type { CellTest } from './rule.js';
import { decide, needs, notTested, type ClaimDefinition } from './family.js';
import { cellKey, comparison } from './utilityComparison.js';

export const exactGain: ClaimDefinition = {
  id: 'exact-accountant-gain',
  statement: "lshdp's own: LSHRR budgeted with the exact accountant has utility loss no higher than with the paper's, and lower in some cell (same n, κ, k, ξ > 0).",
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const paper = ctx.series.filter(isLshrrPaper);
    return comparison(ctx, {
      needs: [
        [ctx.series.some(isLshrrExact), 'an lshrr entry with accountant: exact'],
        [paper.length > 0, 'an lshrr entry with the paper accountant'],
      ],
      a: ctx.series.filter((s) => isLshrrExact(s) && s.xi !== null && s.xi > 0),
      b: paper,
      key: cellKey,
      paired: true,
      words: { forWord: 'exact accountant lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty: 'needs lshrr with the exact and the paper accountant at the same n, κ, k and ξ > 0',
    });
  },
};

/**
 * lshdp's own claim (not the paper's): the directional-privacy mechanisms of Weggenmann &
 * Kerschbaum (CCS 2021) at equal ξ. One cell per (LSHRR entry, n, κ, k, ξ > 0) with both a vmf and
 * a purkayastha series: "for" needs both one-sided paired tests (LSHRR below each) significant,
 * so the cell's p-value for is the larger of the two; "against" is LSHRR significantly above
 * either, so its p-value against is the smaller of the two, doubled (Bonferroni over the two
 * comparisons); Holm over the cells in each direction, as for every claim.
 */
export const lshrrBeatsDirectional: ClaimDefinition = {
  id: 'lshrr-beats-directional',
  statement:
    "lshdp's own: at equal ξ > 0, LSHRR (each accountant in the grid) has lower utility loss than both directional-privacy mechanisms, von Mises–Fisher and Purkayastha (Weggenmann & Kerschbaum, CCS 2021), at every n, κ and k. Equal ξ is the paper's LapLSH sense (the loss at distance d is at most ξ): VMF and Purkayastha give it with δ = 0 for every pair and hash function, LSHRR with probability 1 − δ over the hash seeds, and the guarantees grow differently beyond d.",
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrr);
    const vmf = ctx.series.filter(isVmf);
    const purk = ctx.series.filter(isPurkayastha);
    const missing = needs([
      [rr.length > 0, 'an lshrr entry'],
      [vmf.length > 0, 'a vmf entry'],
      [purk.length > 0, 'a purkayastha entry'],
    ]);
    if (missing) return notTested(missing);
    const candidates = rr.filter((s) => s.xi !== null && s.xi > 0);
    const byKey = (xs: Series[]) => new Map(xs.map((x) => [cellKey(x), x]));
    const vmfAt = byKey(vmf);
    const purkAt = byKey(purk);
    const several = new Set(rr.map((s) => s.mechanism)).size > 1;
    let vmfWins = 0;
    let purkWins = 0;
    const cells = candidates.flatMap((a) => {
      const v = vmfAt.get(cellKey(a));
      const p = purkAt.get(cellKey(a));
      if (!v || !p) return [];
      const place = several ? `${where(a, {})} [${a.mechanism}]` : where(a, {});
      const tv = directionalCell(place, pairedSamples(a.byTrial, v.byTrial), true, 'below');
      const tp = directionalCell(place, pairedSamples(a.byTrial, p.byTrial), true, 'below');
      if (!tv || !tp) return [null];
      if (tv.diff > 0) vmfWins++;
      if (tp.diff > 0) purkWins++;
      const cell: CellTest = {
        where: place,
        kind: tv.kind,
        pFor: Math.max(tv.pFor, tp.pFor),
        pAgainst: Math.min(1, 2 * Math.min(tv.pAgainst, tp.pAgainst)),
        zeroVariance: tv.zeroVariance && tp.zeroVariance,
        diff: Math.max(tv.diff, tp.diff),
      };
      return [cell];
    });
    return decide(
      cells,
      ctx,
      { forWord: 'LSHRR lower than both', againstWord: 'higher than either', tests: 'one-sided paired t-tests over trials, both comparisons per cell' },
      'needs lshrr, vmf and purkayastha at the same n, κ, k and ξ > 0',
      'directional',
      (out) => {
        // where LSHRR loses: per entry, the (n, κ) of its cells against the claim
        const against = out.cells.filter((c) => c.isAgainst);
        const byEntry = new Map<string, Set<string>>();
        for (const c of against) {
          const entry = /\[(.+)\]$/.exec(c.where)?.[1] ?? rr[0]!.base;
          const nk = /n=\S+ κ=\S+/.exec(c.where)?.[0] ?? c.where;
          byEntry.set(entry, (byEntry.get(entry) ?? new Set()).add(nk));
        }
        const losing = [...byEntry].map(([e, nks]) => `${e} at ${[...nks].join(', ')}`).join('; ');
        return [
          `where the others win on the means: VMF below LSHRR in ${vmfWins} of ${cells.filter((c) => c !== null).length} cells, Purkayastha in ${purkWins}`,
          ...(against.length > 0 ? [`LSHRR significantly worse: ${losing}`] : []),
        ];
      },
    );
  },
};

/**
 * lshdp's own claim (not the paper's): JL + Gaussian noise (Kenthapadi et al. 2013; issue 42) at
 * equal ξ, the most direct rival of LSHRR: the same projection, reals instead of signs, Gaussian
 * noise instead of flips, and the same kind of statement (the loss at distance d at most ξ with
 * probability 1 − δ over the hyperplanes and the noise). One cell per (LSHRR entry, n, κ, k, ξ > 0)
 * with a jl-gaussian series at its default guarantee (`expected`; the others are stricter
 * statements, not the same ξ): a one-sided paired t-test (both use the trial's hyperplanes), Holm
 * over the cells in each direction.
 */
export const lshrrBeatsJlGaussian: ClaimDefinition = {
  id: 'lshrr-beats-jl-gaussian',
  statement:
    "lshdp's own: at equal ξ > 0, LSHRR (each accountant in the grid) has lower utility loss than JL + Gaussian noise (Kenthapadi, Korolova, Mironov, Mishra 2013) at its default guarantee, at every n, κ and k. Both state the loss at distance d with probability 1 − δ over the hyperplanes and the noise; JL + Gaussian releases κ reals, LSHRR κ bits.",
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrr);
    const jl = ctx.series.filter(isGaussianExpected);
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry'],
        [jl.length > 0, 'a jl-gaussian entry at its default guarantee'],
      ],
      a: rr.filter((s) => s.xi !== null && s.xi > 0),
      b: jl,
      key: cellKey,
      paired: true,
      words: { forWord: 'LSHRR lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty: 'needs lshrr and jl-gaussian at the same n, κ, k and ξ > 0',
    });
  },
};
