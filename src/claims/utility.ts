/**
 * The paper's claims on utility (Fig. 1 and Fig. 2 of Sect. 6), each as a family of cells over
 * one data set's grid, and the list of every utility claim in report order (with the accountant's
 * worked examples, utilityBudgets.ts, and lshdp's own, utilityOwn.ts). Which cells a claim covers,
 * which test each cell gets (paired when both sides share the trial's hyperplanes: same n, κ and
 * trial; Welch across κ or against mechanisms without hyperplanes) and what it needs from the grid
 * are all decided here, next to the claim's statement.
 */
import { allSamples, directionalCell, distinct, isLaplsh, isLsh, isLshrrPaper, isRapporVector, pairedSamples, seriesMean, type Samples, type Series } from './grid.js';
import { familyVerdict, verdictNotes, zeroVarianceNote, type CellTest, type FamilyOutcome } from './rule.js';
import { decide, needs, notTested, type ClaimDefinition } from './family.js';
import { cellKey, cellKeyNoKappa, cellKeyNoXi, comparison, labelled, match } from './utilityComparison.js';
import { flipExample, ldpEquivalent } from './utilityBudgets.js';
import { exactGain, lshrrBeatsDirectional, lshrrBeatsJlGaussian } from './utilityOwn.js';
import { bucketTwoMatchesLshrr, lshrrBeatsMinhashBucket } from './utilityMinhash.js';

// ------------------------------------------------------------------ the paper's numbers

/** Fig. 1, Foursquare: share of the query users with a 1-NN within d = 0.1. */
export const PAPER_NN_SHARE: Readonly<Record<number, number>> = { 100: 0.43, 1000: 0.16 };
export const PAPER_NN_THRESHOLD = 0.1;
/** Equivalence margin of `rappor-inapplicable`: a share of the random-hash level. */
export const RANDOM_LEVEL_MARGIN = 0.02;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

// ------------------------------------------------------------------ the claims

const nnShare: ClaimDefinition = {
  id: 'nn-share',
  statement: 'Fig. 1: the share of query users whose true 1-NN angular distance is below d falls as n grows (paper, Foursquare: 43% at n = 100, 16% at n = 1000).',
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const d = ctx.config.d;
    const ns = distinct(ctx.nn.map((r) => r.n));
    if (ns.length < 2) return notTested(ns.length === 0 ? 'needs 1-NN distances (nn_distances)' : `needs 1-NN distances at two or more n (has n = ${ns[0]} only)`);
    // strictly below d, as Fig. 1's legend counts them
    const indicators = new Map(ns.map((n) => [n, ctx.nn.filter((r) => r.n === n).map((r): number => (r.distance < d ? 1 : 0))]));
    const share = (n: number) => {
      const xs = indicators.get(n)!;
      return xs.reduce((s, x) => s + x, 0) / xs.length;
    };
    const exact = ns.every((n) => ctx.allQueries(n));
    const cells: CellTest[] = [];
    for (let i = 0; i + 1 < ns.length; i++) {
      const lo = ns[i];
      const hi = ns[i + 1];
      const w = `n=${lo}→${hi}`;
      if (exact) {
        const diff = share(hi) - share(lo);
        cells.push({ where: w, kind: 'exact', pFor: diff < 0 ? 0 : 1, pAgainst: diff > 0 ? 0 : 1, zeroVariance: false, diff });
      } else {
        // different query samples per n: Welch on the 0/1 indicators (the unpooled two-proportion test)
        const c = directionalCell(w, { a: indicators.get(hi)!, b: indicators.get(lo)! }, false, 'below');
        if (c) cells.push(c);
      }
    }
    const shares = ns
      .map((n) => {
        const paper = d === PAPER_NN_THRESHOLD && PAPER_NN_SHARE[n] !== undefined ? ` (paper, Foursquare: ${Math.round(100 * PAPER_NN_SHARE[n])}%)` : '';
        return `n=${n}: ${pct(share(n))} of ${indicators.get(n)!.length}${paper}`;
      })
      .join(', ');
    const how = exact ? 'exact: every user is a query, shares compared directly' : 'query samples: one-sided Welch tests on the 0/1 indicators';
    const thresholdNote = d === PAPER_NN_THRESHOLD ? '' : `; the paper's shares are at d = ${PAPER_NN_THRESHOLD}`;
    if (cells.length === 0) return notTested(`needs at least 2 query users per n; shares below d = ${d}: ${shares}`);
    const out = familyVerdict(cells, ctx.alpha);
    const flat = [...(out.zeroVariance > 0 ? [zeroVarianceNote(out.zeroVariance, 'step')] : []), ...verdictNotes(out)].map((n) => `; ${n}`).join('');
    return {
      verdict: out.verdict,
      cells_tested: out.tested,
      cells_for: out.forCount,
      cells_against: out.againstCount,
      detail: `share with 1-NN d_θ < ${d}: ${shares}; falls in ${out.forCount} of ${out.tested} steps of n, rises in ${out.againstCount} (${how}${exact ? '' : `, Holm at α = ${ctx.alpha}`})${flat}${thresholdNote}`,
    };
  },
};

const lshrrBeatsLaplsh: ClaimDefinition = {
  id: 'lshrr-beats-laplsh',
  statement: 'Fig. 2: LSHRR has lower utility loss than LapLSH for n ≥ 100 (the paper: 100, 500, 1000), at every κ, k and ξ > 0.',
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrrPaper);
    const lap = ctx.series.filter(isLaplsh);
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry with the paper accountant'],
        [lap.length > 0, 'a laplsh entry'],
      ],
      a: rr.filter((s) => s.n >= 100 && s.xi !== null && s.xi > 0),
      b: lap,
      key: cellKey,
      paired: true,
      words: { forWord: 'LSHRR lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty:
        needs([
          [rr.some((s) => s.n >= 100), 'n ≥ 100'],
          [rr.some((s) => s.xi !== null && s.xi > 0), 'ξ > 0'],
        ]) ?? 'needs lshrr and laplsh at the same n ≥ 100, κ, k and ξ > 0',
    });
  },
};

const laplshBeatsLshrrSmallN: ClaimDefinition = {
  id: 'laplsh-beats-lshrr-small-n',
  statement: 'Fig. 2: at n = 50 and κ = 50, LapLSH has lower utility loss than LSHRR (every k and ξ > 0).',
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrrPaper);
    const lap = ctx.series.filter(isLaplsh);
    const all = [...rr, ...lap];
    return comparison(ctx, {
      needs: [
        [all.some((s) => s.n === 50), 'n = 50'],
        [all.some((s) => s.kappa === 50), 'κ = 50'],
        [rr.length > 0, 'an lshrr entry with the paper accountant'],
        [lap.length > 0, 'a laplsh entry'],
      ],
      a: lap.filter((s) => s.n === 50 && s.kappa === 50 && s.xi !== null && s.xi > 0),
      b: rr,
      key: cellKey,
      paired: true,
      words: { forWord: 'LapLSH lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty: 'needs lshrr and laplsh both at n = 50, κ = 50 and the same ξ > 0',
    });
  },
};

const lshDegrades: ClaimDefinition = {
  id: 'lsh-degrades-with-shorter-codes',
  statement: "Fig. 2: vanilla LSH's utility loss grows as the hash length κ falls (adjacent κ of the grid, per n and k).",
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const lsh = ctx.series.filter(isLsh);
    const kappas = distinct(lsh.map((s) => s.kappa));
    const missing = needs([
      [lsh.length > 0, 'an lsh entry'],
      [kappas.length >= 2, 'two or more κ'],
    ]);
    if (missing) return notTested(missing);
    const cells: (CellTest | null)[] = [];
    for (let i = 0; i + 1 < kappas.length; i++) {
      const short = lsh.filter((s) => s.kappa === kappas[i]);
      const long = lsh.filter((s) => s.kappa === kappas[i + 1]);
      for (const p of match(short, long, (s) => JSON.stringify([s.n, s.k]))) {
        // different κ: different hyperplanes, independent samples
        const w = `n=${p.a.n} k=${p.a.k} κ=${kappas[i]} vs ${kappas[i + 1]}${p.label ? ` [${p.a.mechanism}]` : ''}`;
        cells.push(directionalCell(w, allSamples(p.a.byTrial, p.b.byTrial), false, 'above'));
      }
    }
    return decide(cells, ctx, { forWord: 'shorter code worse', againstWord: 'better', tests: 'one-sided Welch t-tests over trials' }, 'needs lsh at two κ with the same n and k');
  },
};

const longerCodesWin: ClaimDefinition = {
  id: 'longer-codes-win-at-high-xi',
  statement: 'Fig. 2: at the largest ξ (the paper: 20), LSHRR with κ = 20 and κ = 50 has lower utility loss than with κ = 10.',
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrrPaper);
    const xis = distinct(rr.map((s) => s.xi)).filter((x) => x > 0);
    const kappas = distinct(rr.map((s) => s.kappa));
    const top = xis[xis.length - 1];
    const at = rr.filter((s) => s.xi === top);
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry with the paper accountant'],
        [kappas.includes(10), 'κ = 10'],
        [kappas.includes(20) || kappas.includes(50), 'κ = 20 or κ = 50'],
        [xis.length > 0, 'ξ > 0'],
      ],
      a: at.filter((s) => s.kappa === 20 || s.kappa === 50),
      b: at.filter((s) => s.kappa === 10),
      key: cellKeyNoKappa,
      // different κ: different hyperplanes, independent samples
      paired: false,
      where: (p) => `${labelled(p, { kappa: false })} κ=${p.a.kappa} vs 10`,
      words: { forWord: 'longer code lower', againstWord: 'higher', tests: `one-sided Welch t-tests over trials at ξ = ${top}` },
      whenEmpty: `needs lshrr at κ = 10 and κ = 20 or 50 with the same n, k at ξ = ${top}`,
      notes: top === 20 ? [] : [`largest ξ of the grid is ${top} (the paper's: 20)`],
    });
  },
};

const lshrrConverges: ClaimDefinition = {
  id: 'lshrr-converges-to-lsh',
  statement: "Fig. 2: LSHRR's utility loss does not rise with ξ, and at the largest ξ it is closer to LSH's (same κ) than at the smallest ξ > 0.",
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrrPaper);
    const xis = distinct(rr.map((s) => s.xi));
    const missing = needs([
      [rr.length > 0, 'an lshrr entry with the paper accountant'],
      [xis.length >= 2, 'two or more ξ'],
    ]);
    if (missing) return notTested(missing);
    const cells: (CellTest | null)[] = [];
    // (a) monotone: each step up in ξ, paired (same hyperplanes at the same n, κ, trial)
    for (let i = 0; i + 1 < xis.length; i++) {
      const lower = rr.filter((s) => s.xi === xis[i]);
      const upper = rr.filter((s) => s.xi === xis[i + 1]);
      for (const p of match(upper, lower, cellKeyNoXi)) {
        // "does not rise": a fall is evidence for it, a rise against it
        const w = `${labelled(p, { xi: false })} ξ=${xis[i]}→${xis[i + 1]}`;
        cells.push(directionalCell(w, pairedSamples(p.a.byTrial, p.b.byTrial), true, 'below', 'monotone'));
      }
    }
    // (b) closer to LSH at the largest ξ than at the smallest ξ > 0: |LSHRR − LSH| per trial, paired
    const positive = xis.filter((x) => x > 0);
    const lsh = ctx.series.filter(isLsh);
    const notes: string[] = [];
    if (positive.length >= 2 && lsh.length > 0) {
      const lo = positive[0];
      const hi = positive[positive.length - 1];
      const high = rr.filter((s) => s.xi === hi);
      const low = rr.filter((s) => s.xi === lo);
      for (const p of match(high, low, cellKeyNoXi)) {
        for (const l of lsh.filter((s) => s.n === p.a.n && s.kappa === p.a.kappa && s.k === p.a.k)) {
          const trials = [...p.a.byTrial.keys()].filter((t) => p.b.byTrial.has(t) && l.byTrial.has(t)).sort((x, y) => x - y);
          const gap = (s: Series) => trials.map((t) => Math.abs(s.byTrial.get(t)! - l.byTrial.get(t)!));
          const samples: Samples = { a: gap(p.a), b: gap(p.b) };
          cells.push(directionalCell(`${labelled(p, { xi: false })} |LSHRR−LSH| ξ=${hi} vs ${lo}`, samples, true, 'below', 'closer'));
        }
      }
    } else {
      notes.push(
        `closeness to LSH not tested: ${needs([
          [lsh.length > 0, 'an lsh entry'],
          [positive.length >= 2, 'two or more ξ > 0'],
        ])}`,
      );
    }
    // per-part counts of the one family (Holm over both parts together)
    const partNotes = (out: FamilyOutcome) => {
      const count = (part: string, pick: 'isFor' | 'isAgainst') => out.cells.filter((c) => c.part === part && c[pick]).length;
      const total = (part: string) => out.cells.filter((c) => c.part === part).length;
      return [
        `steps up in ξ: loss falls in ${count('monotone', 'isFor')} of ${total('monotone')}, rises in ${count('monotone', 'isAgainst')}`,
        ...(total('closer') > 0 ? [`closer to LSH at the largest ξ in ${count('closer', 'isFor')} of ${total('closer')}, farther in ${count('closer', 'isAgainst')}`] : []),
        ...notes,
      ];
    };
    return decide(cells, ctx, { forWord: 'for', againstWord: 'against', tests: 'one-sided paired t-tests over trials' }, 'needs lshrr at two ξ with the same n, κ and k', 'directional', partNotes);
  },
};

const beatsRandom: ClaimDefinition = {
  id: 'lshrr-beats-random-at-xi-2',
  statement: 'Fig. 2: at ξ = 2 ("around 2"), LSHRR has lower utility loss than the uniformly random hash (LSHRR at ξ = 0).',
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrrPaper);
    const xis = distinct(rr.map((s) => s.xi));
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry with the paper accountant'],
        [xis.includes(2), 'ξ = 2'],
        [xis.includes(0), 'ξ = 0'],
      ],
      a: rr.filter((s) => s.xi === 2),
      b: rr.filter((s) => s.xi === 0),
      key: cellKeyNoXi,
      paired: true,
      words: { forWord: 'LSHRR at ξ = 2 lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty: 'needs lshrr at ξ = 2 and ξ = 0 with the same n, κ and k',
    });
  },
};

const rapporInapplicable: ClaimDefinition = {
  id: 'rappor-inapplicable',
  statement: `Sect. 6.4: RAPPOR on the whole vector (rappor-vector) stays at the random-hash level (LSHRR at ξ = 0, same n, κ, k) at every ξ: equivalent within ±${100 * RANDOM_LEVEL_MARGIN}% of that level.`,
  evaluation: 'utility',
  angular: true,
  evaluate(ctx) {
    const rv = ctx.series.filter(isRapporVector);
    const random = ctx.series.filter((s) => isLshrrPaper(s) && s.xi === 0);
    return comparison(ctx, {
      needs: [
        [rv.length > 0, 'a rappor-vector entry'],
        [random.length > 0, 'lshrr (paper accountant) at ξ = 0 (the random level)'],
      ],
      a: rv,
      b: random,
      key: cellKeyNoXi,
      // RAPPOR draws no hyperplanes: independent of LSHRR's trial, Welch
      paired: false,
      margin: (b) => RANDOM_LEVEL_MARGIN * seriesMean(b),
      words: { forWord: 'equivalent to the random level', againstWord: 'beyond the margin', tests: `TOST with Welch t-tests, margin ${100 * RANDOM_LEVEL_MARGIN}% of the random level` },
      whenEmpty: 'needs rappor-vector and lshrr at ξ = 0 with the same n, κ and k',
    });
  },
};

/** The utility claims, in report order (the ids of `CLAIM_IDS`). */
export const UTILITY_CLAIMS: readonly ClaimDefinition[] = [
  nnShare,
  lshrrBeatsLaplsh,
  laplshBeatsLshrrSmallN,
  lshDegrades,
  longerCodesWin,
  lshrrConverges,
  beatsRandom,
  rapporInapplicable,
  flipExample,
  ldpEquivalent,
  exactGain,
  lshrrBeatsDirectional,
  lshrrBeatsJlGaussian,
  lshrrBeatsMinhashBucket,
  bucketTwoMatchesLshrr,
];
