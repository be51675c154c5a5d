/**
 * `lshdp choose`'s rows: per (data set, n, κ) of a results folder and one set of targets, each
 * privatized entry's utility at matched attack success (matched.ts) as plain fields, the JSON shape
 * of `choose --json` and matched.csv (docs/OUTPUTS.md).
 */
import type { CrossingFlag } from './crossing.js';
import { matchCell, type MatchedEntry } from './matched.js';
import { cellKeyOf, readFolderCells, type FolderCell, type FolderCells, type MatchedCellKey, type Targets } from './read.js';

/** The one line every matched table carries (issue 51: what "matched" can and cannot say). */
export const MATCHED_CAVEAT =
  'Utility at matched attack success, not matched protection: both attacks are lower bounds, and Hamming ranking is the likelihood ranking for LSHRR only, so for every mechanism but LSHRR a matched ξ* may be too generous.';

export interface MatchedRow extends MatchedCellKey {
  /** "reid1 <= 0.01", "auc_adv <= 0.01", or both joined by " and " */
  target: string;
  mechanism: string;
  /** ξ* (null for none) */
  xi: number | null;
  /** ξ*'s 90% interval; null where open (a resample's crossing left the grid on that side) or not computed */
  xi_low: number | null;
  xi_high: number | null;
  /** the interval as printed: "[3.1, 4.6]", "[3.1, > 20]" */
  xi_interval: string;
  flag: CrossingFlag;
  /** the target that binds at ξ* */
  binding: 'reid1' | 'auc_adv' | null;
  reid1_mean: number | null;
  auc_adv_mean: number | null;
  /** the binding target's one-release bounds: normal 90% upper prediction bound, and the largest trial (coverage m/(m+1)) */
  release_bound: number | null;
  release_max: number | null;
  release_max_coverage: number | null;
  /** every target's one-release bounds at ξ* (normal 90% and the largest trial), null without that target */
  reid1_release_bound: number | null;
  reid1_release_max: number | null;
  auc_adv_release_bound: number | null;
  auc_adv_release_max: number | null;
  utility_loss_mean: number | null;
  utility_loss_se: number | null;
  /** with recommendations: NDCG@N at ξ* (N the grid's nearest to 10), else null */
  ndcg_mean: number | null;
  /** retained share of clean LSH's gain over random neighbours (1 = 100%), null where not shown */
  retained: number | null;
  retained_se: number | null;
  /** why retained is not shown ('' when shown) */
  retained_note: string;
  epsilon_ldp: number | null;
  /** 1 for the entries no other is shown better than (best, tied, open), else the position by observed u*; null when not ranked */
  rank: number | null;
  /** best, tied, worse, open (an `all` entry not shown better than every other: unranked, the grid ends before T), unranked (none), untested (m < 2) (src/decide/rank.ts) */
  rank_kind: string;
  /** for tied and open: the entries not shown apart from it */
  tied_with: string[];
  /** the smallest Holm-adjusted p of a pair with an entry of smaller observed u* (worse iff ≤ α); null for the observed best, `all` entries and unranked */
  p_worse: number | null;
  /** false: it cannot be released (src/mechanisms/releasable.ts: hash functions drawn from the secret noise) */
  releasable: boolean;
  trials: number;
  /** the table's: clean LSH meets every target (no noise needed) */
  clean_meets: boolean;
  /** this entry is none on a grid starting at ξ 0: its attack's success without noise's help already exceeds T */
  below_chance: boolean;
}

export interface MatchedTable extends MatchedCellKey {
  target: string;
  trials: number;
  /** the ranking's level */
  alpha: number;
  /** clean LSH meets every target: no noise needed */
  clean_meets: boolean;
  /** the grid's smallest ξ is 0 and some entry is none: T is below that attack's chance level */
  below_chance: boolean;
  /** per entry flagged none at ξ 0: each target's mean success there that exceeds T (the level the note calls chance, measured) */
  at_zero: { mechanism: string; name: 'reid1' | 'auc_adv'; value: number }[];
  skipped: string[];
  /** with recommendations: the list length N and the baselines' NDCG@N */
  ndcg: { top: number; pop: number | null; exact: number | null } | null;
  rows: MatchedRow[];
}

const fin = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * "[a, b]" with "< ξ_0" / "> ξ_J" for a side where more than 5% of resamples crossed below / beyond
 * the grid ("none" below a grid starting at 0: no ξ meets T in those resamples); "[> ξ_J]" when both
 * ends lie beyond it (an `all` entry).
 */
export function intervalText(low: number, high: number, xis: readonly number[], fmt: (x: number) => string): string {
  if (Number.isNaN(low) || Number.isNaN(high)) return '';
  // below a grid that starts at 0 there is no ξ: those resamples found none
  const below = xis[0] === 0 ? 'none' : `< ${fmt(xis[0])}`;
  const side = (x: number) => (x === Number.NEGATIVE_INFINITY ? below : x === Number.POSITIVE_INFINITY ? `> ${fmt(xis[xis.length - 1])}` : fmt(x));
  return low === high && !Number.isFinite(low) ? `[${side(low)}]` : `[${side(low)}, ${side(high)}]`;
}

const targetText = (cell: FolderCell) => cell.targetNames.map((name, g) => `${name} <= ${cell.targets[g]}`).join(' and ');

function rowOf(cell: FolderCell, e: MatchedEntry, all: readonly MatchedEntry[], epsilonLdp: (xi: number) => number | null, cleanMeets: boolean): MatchedRow {
  const none = e.flag === 'none';
  const g = e.binding;
  const at = (name: 'reid1' | 'auc_adv') => {
    const i = cell.targetNames.indexOf(name);
    return i < 0 || none ? null : e.success[i];
  };
  const xis = cell.entries.find((x) => x.label === e.label)!.xis;
  const bound = none ? null : e.release[g];
  const boundOf = (name: 'reid1' | 'auc_adv') => {
    const i = cell.targetNames.indexOf(name);
    return i < 0 || none ? null : e.release[i];
  };
  const [reid1, auc] = [boundOf('reid1'), boundOf('auc_adv')];
  return {
    ...cellKeyOf(cell),
    target: targetText(cell),
    mechanism: e.label,
    xi: fin(e.xi),
    xi_low: fin(e.xiLow),
    xi_high: fin(e.xiHigh),
    xi_interval: intervalText(e.xiLow, e.xiHigh, xis, (x) => String(Number(x.toPrecision(3)))),
    flag: e.flag,
    binding: none ? null : cell.targetNames[g],
    reid1_mean: at('reid1'),
    auc_adv_mean: at('auc_adv'),
    release_bound: bound ? bound.normal : null,
    release_max: bound ? bound.max : null,
    release_max_coverage: bound ? bound.maxCoverage : null,
    reid1_release_bound: reid1 ? reid1.normal : null,
    reid1_release_max: reid1 ? reid1.max : null,
    auc_adv_release_bound: auc ? auc.normal : null,
    auc_adv_release_max: auc ? auc.max : null,
    utility_loss_mean: fin(e.loss),
    utility_loss_se: fin(e.lossSe),
    ndcg_mean: fin(e.ndcg),
    retained: fin(e.retained.value),
    retained_se: fin(e.retained.se),
    retained_note: e.retained.why,
    epsilon_ldp: none ? null : epsilonLdp(e.xi),
    rank: e.rank.position,
    rank_kind: e.rank.kind,
    tied_with: e.rank.tiedWith.map((x) => all[x].label),
    p_worse: fin(e.rank.p),
    releasable: e.releasable,
    trials: cell.trials,
    clean_meets: cleanMeets,
    below_chance: none && xis[0] === 0,
  };
}

/** The seed of a cell's bootstrap: the cell alone, so every table, the figure of retained against T (curve.ts) and the matched claims resample its trials alike. */
export const cellSeed = (cell: Pick<MatchedCellKey, 'dataset' | 'n' | 'kappa' | 'k'>): string => `choose\u0000${cell.dataset}\u0000${cell.n}\u0000${cell.kappa}\u0000${cell.k}`;

/**
 * The matched tables of a results folder for one set of targets, cell by cell in the folder's
 * order; `folder`: its cells already read for these targets (readFolderCells).
 */
export function chooseTables(dir: string, targets: Targets, alpha: number, folder: FolderCells = readFolderCells(dir, targets)): MatchedTable[] {
  return folder.cells.map((cell): MatchedTable => {
    const matched = matchCell(cell, { alpha, seed: cellSeed(cell) });
    const rows = matched.entries.map((e) => rowOf(cell, e, matched.entries, (xi) => folder.epsilonLdp(cell, e.label, xi), matched.cleanMeets));
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const atZero = cell.entries.flatMap((e, x) =>
      matched.entries[x].flag === 'none' && e.xis[0] === 0
        ? cell.targetNames.flatMap((name, g) => (mean(e.success[g][0]) > cell.targets[g] ? [{ mechanism: e.label, name, value: mean(e.success[g][0]) }] : []))
        : [],
    );
    return {
      ...cellKeyOf(cell),
      target: targetText(cell),
      trials: cell.trials,
      alpha,
      clean_meets: matched.cleanMeets,
      below_chance: matched.entries.some((e, x) => e.flag === 'none' && cell.entries[x].xis[0] === 0),
      at_zero: atZero,
      skipped: cell.skipped,
      ndcg: cell.ndcg ?? null,
      rows,
    };
  });
}
