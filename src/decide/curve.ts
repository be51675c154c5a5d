/**
 * Utility retained at matched attack success as a curve of the target T (the figure of issue 51,
 * docs/ATTACKS.md): per cell, target kind and entry, retained at each T of a sweep with its 90%
 * band, from the very bootstrap `lshdp choose` draws for the cell (same seed, same B), so the curve
 * at a target is choose's retained there. Per resample and entry the means are pooled once; each
 * T is then a crossing search on the pooled means, not a rerun of the chain.
 */
import { crossingOf, pavaInto, valueAt, type CrossingFlag } from './crossing.js';
import type { EntrySeries } from './matched.js';
import { bootstrapWeights, BOOTSTRAP_B, weightedMean, weightedMeanAt } from './resample.js';
import { retainedAt, retainedShown } from './retained.js';
import { retained } from '../stats/retained.js';
import { selectQuantiles } from './select.js';

/** The band's levels: the 5% and 95% bootstrap quantiles (nearest rank, as ξ*'s interval). */
export const BAND = [0.05, 0.95] as const;

/** One cell as the curve needs it: a FolderCell's fields (src/decide/read.ts), the target kind by index. */
export interface CurveCell {
  trials: number;
  entries: EntrySeries[];
  lsh?: { loss: number[]; success: number[][] };
  uRand: number | null;
}

export interface CurvePoint {
  mechanism: string;
  target: number;
  /** the crossing at T of the observed trials */
  flag: CrossingFlag;
  /** ξ* and u* at T (null for none) */
  xi: number | null;
  loss: number | null;
  /** retained at T (1 = 100%); null for none or where retained is not shown */
  retained: number | null;
  /** the band: null where not shown; low null also where more than 5% of resamples find no crossing at T (open below) */
  low: number | null;
  high: number | null;
}

export interface CurveOfCell {
  points: CurvePoint[];
  /** why retained is not shown in this cell ('' when shown) */
  why: string;
}

/**
 * What every target kind of a cell shares (the figure's two rows, each a sweep of T): the
 * resamples (row 0 the observed trials, then choose's B), clean LSH's mean loss in each, and each
 * entry's mean loss per ξ in each (row r at r·J). Drawn once per cell (cellResamples), not per kind.
 */
export interface CellResamples {
  /** retained is shown in this cell (else only row 0 is computed) */
  shown: { ok: boolean; why: string };
  /** the B resamples' multiplicities (empty for m < 2) */
  resamples: Float64Array[];
  /** clean LSH's mean loss over the observed trials (NaN without it) and in each resample */
  lshLoss: number;
  lshBoot: number[];
  /** per entry, its mean loss per ξ per row (the rows of `shown.ok ? [observed, …resamples] : [observed]`) */
  loss: Float64Array[];
  /** scratch, grown as needed: the resamples' retained at every T, and one entry's pooled successes per row */
  scratch: { boot: Float64Array; success: Float64Array };
}

/** Per row of `weights`, the means of a per-ξ, per-trial table (ξ-major, m trials each), row r at r·J. */
function meansOf(table: readonly (readonly number[])[], weights: readonly (Float64Array | null)[], pool: boolean, into?: Float64Array): Float64Array {
  const J = table.length;
  const m = J > 0 ? table[0].length : 0;
  const flat = Float64Array.from(table.flat());
  const out = into ?? new Float64Array(weights.length * J);
  const means = new Float64Array(J);
  const pooled = new Float64Array(J);
  const blockMeans = new Float64Array(J);
  const sizes = new Int32Array(J);
  for (let r = 0; r < weights.length; r++) {
    const w = weights[r];
    if (!pool) {
      for (let j = 0; j < J; j++) out[r * J + j] = weightedMeanAt(flat, j * m, m, w);
      continue;
    }
    for (let j = 0; j < J; j++) means[j] = weightedMeanAt(flat, j * m, m, w);
    pavaInto(means, pooled, blockMeans, sizes);
    out.set(pooled, r * J);
  }
  return out;
}

/** The resamples and mean losses of a cell, shared by its target kinds: `seed` and `b` as choose's for the cell (src/decide/choose.ts). */
export function cellResamples(cell: CurveCell, seed: string, b = BOOTSTRAP_B): CellResamples {
  const shown = retainedShown(cell.uRand, cell.lsh ? cell.lsh.loss : null);
  const resamples = cell.trials >= 2 ? bootstrapWeights(cell.trials, b, seed) : [];
  const weights = shown.ok ? [null, ...resamples] : [null];
  return {
    shown,
    resamples,
    lshLoss: cell.lsh ? weightedMean(cell.lsh.loss, null) : Number.NaN,
    lshBoot: cell.lsh ? resamples.map((w) => weightedMean(cell.lsh!.loss, w)) : [],
    loss: cell.entries.map((e) => meansOf(e.loss, weights, false)),
    scratch: { boot: new Float64Array(0), success: new Float64Array(0) },
  };
}

/** Per row (the observed trials, then each resample) the pooled mean successes and the mean losses of one entry over its ξ grid, row r at r·J. */
interface Pooled {
  success: Float64Array;
  loss: Float64Array;
}

/**
 * Retained at every T of `ts` (ascending) in every resample, into out[x·B + r] for T index x: per
 * resample one walk up its pooled means as T rises (the bracket only moves up), with crossingOf's
 * bracket and valueAt's arithmetic, without ξ* (an exp and a log each). A resample in which no ξ
 * meets T: −∞ (the entry cannot meet T there: below every retained).
 */
function bootRetained(p: Pooled, J: number, ts: readonly number[], uRand: number, lshBoot: readonly number[], out: Float64Array): void {
  const B = lshBoot.length;
  const q = p.success;
  const u = p.loss;
  for (let r = 0; r < B; r++) {
    const at = (r + 1) * J;
    const last = at + J - 1;
    let i = at;
    for (let x = 0; x < ts.length; x++) {
      const t = ts[x];
      let v: number;
      if (q[at] > t) v = Number.NEGATIVE_INFINITY;
      else if (q[last] <= t) v = retained(u[last], uRand, lshBoot[r]);
      else {
        while (q[i + 1] <= t) i++;
        const f = (t - q[i]) / (q[i + 1] - q[i]);
        v = retained(f === 0 ? u[i] : u[i] + f * (u[i + 1] - u[i]), uRand, lshBoot[r]);
      }
      out[x * B + r] = v;
    }
  }
}

const orNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * The curve of one cell for target kind g (the index into each entry's `success`) at the targets
 * `ts` (points in ascending T): `seed` and `b` as choose's for the cell (src/decide/choose.ts), so
 * the resamples are its; `shared`: the cell's cellResamples (with that seed and b), drawn once for
 * all its kinds.
 */
export function curveOfCell(cell: CurveCell, g: number, ts: readonly number[], seed: string, b = BOOTSTRAP_B, shared: CellResamples = cellResamples(cell, seed, b)): CurveOfCell {
  const { shown, resamples, lshLoss, lshBoot } = shared;
  const weights = shown.ok ? [null, ...resamples] : [null];
  const points: CurvePoint[] = [];
  const sorted = [...ts].sort((x, y) => x - y);
  const size = resamples.length * sorted.length;
  if (shared.scratch.boot.length < size) shared.scratch.boot = new Float64Array(size);
  const boot = shared.scratch.boot;
  cell.entries.forEach((e, at) => {
    const J = e.xis.length;
    const rows = weights.length * J;
    if (shared.scratch.success.length < rows) shared.scratch.success = new Float64Array(rows);
    const p: Pooled = { success: meansOf(e.success[g], weights, true, shared.scratch.success), loss: shared.loss[at] };
    const banded = shown.ok && resamples.length > 0;
    if (banded) bootRetained(p, J, sorted, cell.uRand!, lshBoot, boot);
    sorted.forEach((t, x) => {
      const c = crossingOf(e.xis, p.success.subarray(0, J), t, true);
      const none = c.flag === 'none';
      const u = none ? Number.NaN : valueAt(p.loss, c.i, c.f);
      const point: CurvePoint = { mechanism: e.label, target: t, flag: c.flag, xi: orNull(c.xi), loss: orNull(u), retained: null, low: null, high: null };
      points.push(point);
      if (!shown.ok || none) return;
      point.retained = retainedAt(cell.uRand, u, lshLoss);
      if (!banded) return;
      const [low, high] = selectQuantiles(boot.subarray(x * resamples.length, (x + 1) * resamples.length), BAND);
      point.low = orNull(low);
      point.high = orNull(high);
    });
  });
  return { points, why: shown.why };
}

/**
 * The sweep of T: `count` values from `lo` to `hi`, evenly spaced in log T (`log`, lo > 0) or in T,
 * with the config's targets added (wherever they lie), ascending and without repeats.
 */
export function targetSweep(lo: number, hi: number, count: number, log: boolean, targets: readonly number[] = []): number[] {
  if (!(hi > lo) || (log && !(lo > 0))) return [];
  const out = new Set<number>();
  for (let i = 0; i < count; i++) {
    const s = i / (count - 1);
    out.add(i === 0 ? lo : i === count - 1 ? hi : log ? Math.exp(Math.log(lo) + s * (Math.log(hi) - Math.log(lo))) : lo + s * (hi - lo));
  }
  // the tables' targets even outside [lo, hi] (beyond clean LSH's level, or below chance), so the figure shows their values
  for (const t of targets) if (!log || t > 0) out.add(t);
  return [...out].sort((a, b) => a - b);
}
