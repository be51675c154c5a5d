/**
 * matched_curve.csv's rows (docs/OUTPUTS.md): per cell of a folder read for the figure "utility
 * retained at matched attack success", per target kind and entry, retained at each T of a sweep
 * (curve.ts) with its 90% band. The sweep: reid@1 log-spaced from chance (1/N) to clean LSH's mean
 * reid@1 at the cell, the auc advantage evenly from 0 to clean LSH's; both with the decide block's
 * targets added (wherever they lie), so the curve passes through the tables' values.
 */
import type { CrossingFlag } from './crossing.js';
import { cellSeed } from './choose.js';
import { cellResamples, curveOfCell, targetSweep, type CellResamples } from './curve.js';
import { pava } from './crossing.js';
import { cellKeyOf, type FolderCell, type FolderCells, type MatchedCellKey } from './read.js';
import { BOOTSTRAP_B, weightedMean } from './resample.js';

/** About how many T a row of panels is swept over (the decide block's targets come on top). */
export const CURVE_POINTS = 30;

export interface CurveRow extends MatchedCellKey {
  target_kind: 'reid1' | 'auc_adv';
  target: number;
  /** T is one of the decide block's targets of this kind */
  config_target: boolean;
  mechanism: string;
  flag: CrossingFlag;
  xi: number | null;
  utility_loss: number | null;
  retained: number | null;
  retained_low: number | null;
  retained_high: number | null;
  /** why retained is not shown in this cell ('' when shown) */
  retained_note: string;
  trials: number;
}

/**
 * The sweep's ends for one cell and target kind g: from chance (reid@1: `chance`, 1/N; the auc
 * advantage: 0) to clean LSH's mean success, or without clean LSH the largest pooled mean of an
 * entry; null when that is not above chance (nothing to sweep).
 */
export function sweepRange(cell: FolderCell, g: number, chance: number | null): [number, number] | null {
  const reid = cell.targetNames[g] === 'reid1';
  const lo = reid ? chance : 0;
  if (lo === null) return null;
  const top = cell.lsh ? weightedMean(cell.lsh.success[g], null) : Math.max(...cell.entries.map((e) => pava(e.success[g].map((xs) => weightedMean(xs, null))).at(-1)!));
  return top > lo ? [lo, top] : null;
}

/** Every row of the folder's curves; `chanceOf`: 1/N of the attacked users at (data set, n), null where unknown. */
export function curveRows(folder: FolderCells, configTargets: { reid1: readonly number[]; auc_adv: readonly number[] }, chanceOf: (dataset: string, n: number) => number | null): CurveRow[] {
  const out: CurveRow[] = [];
  for (const cell of folder.cells) {
    // the resamples and mean losses of the cell, drawn once for its target kinds (null until a kind has a sweep)
    let shared: CellResamples | null = null;
    cell.targetNames.forEach((kind, g) => {
      const range = sweepRange(cell, g, chanceOf(cell.dataset, cell.n));
      if (range === null) return;
      const mine = configTargets[kind];
      const ts = targetSweep(range[0], range[1], CURVE_POINTS, kind === 'reid1', mine);
      shared ??= cellResamples(cell, cellSeed(cell));
      const curve = curveOfCell(cell, g, ts, cellSeed(cell), BOOTSTRAP_B, shared);
      for (const p of curve.points) {
        out.push({
          ...cellKeyOf(cell),
          target_kind: kind,
          target: p.target,
          config_target: mine.includes(p.target),
          mechanism: p.mechanism,
          flag: p.flag,
          xi: p.xi,
          utility_loss: p.loss,
          retained: p.retained,
          retained_low: p.low,
          retained_high: p.high,
          retained_note: curve.why,
          trials: cell.trials,
        });
      }
    });
  }
  return out;
}
