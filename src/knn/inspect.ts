import { exactKnn } from './angular.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { sampleWithoutReplacement } from '../random/samplers.js';
import type { DatasetSpec } from '../data/spec.js';
import type { DatasetSummary, UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';
import { loadDataset, type LoadOptions } from '../data/load.js';

/** Thresholds of the 1-NN distance distribution: share of queries with distance ≤ t. */
export const NN_THRESHOLDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
/** All users are queries up to this many users; above, `DEFAULT_SAMPLE` sampled ones. */
export const ALL_USERS_LIMIT = 20000;
export const DEFAULT_SAMPLE = 2000;

export interface NnDistribution {
  n: number;
  queries: number;
  mean: number;
  median: number;
  /** [threshold, share of queries with 1-NN distance ≤ threshold] */
  within: [number, number][];
  /** [κ, distinct clean LSH codes of the kept users] for one seeded draw of κ hyperplanes, when asked */
  codes?: [number, number][];
}

/** Counts distinct LSH codes (src/lsh/distinctCodes.ts, a layer above: the CLI hands it in). */
export interface CodeCounter {
  kappas: number[];
  count: (vectors: UserVectors, kappa: number, rng: Rng) => number;
}

export interface InspectReport {
  summary: DatasetSummary;
  nn: NnDistribution[];
}

/**
 * `lshdp data inspect`: the data set's summary plus, per n, the distribution of true 1-NN angular
 * distances over the query users (all users, or a seeded sample drawn like the run's queries:
 * seed role `queries`, cell (dataset, n)); with `codes`, the distinct codes at each κ of one draw of
 * hyperplanes (seed role `inspect-planes`, cell (dataset, n, κ)).
 */
export async function inspectDataset(spec: DatasetSpec, dims: number[], opts: LoadOptions & { sample?: number; seed?: number; codes?: CodeCounter } = {}): Promise<InspectReport> {
  const loaded = await loadDataset(spec, dims, opts);
  const nn: NnDistribution[] = [];
  for (const [n, v] of loaded.vectors) {
    const users = v.userIds.length;
    if (users < 2) {
      // nothing to measure: report the counts only (a 1-NN needs another user)
      nn.push({ n, queries: 0, mean: NaN, median: NaN, within: [] });
      continue;
    }
    const q = opts.sample ?? (users <= ALL_USERS_LIMIT ? 0 : DEFAULT_SAMPLE);
    const queries = sampleWithoutReplacement(makeRng(deriveSeed(opts.seed ?? 1, 'queries', spec.name, n)), users, q);
    const { distances } = exactKnn(v, queries, 1);
    const sorted = Float64Array.from(distances).sort();
    let sum = 0;
    for (const d of sorted) sum += d;
    const m = sorted.length;
    const median = m % 2 ? sorted[(m - 1) / 2]! : (sorted[m / 2 - 1]! + sorted[m / 2]!) / 2;
    const within = NN_THRESHOLDS.map((t): [number, number] => {
      let c = 0;
      for (const d of sorted) if (d <= t) c++;
      return [t, c / m];
    });
    const codes = opts.codes?.kappas.map((kappa): [number, number] => [kappa, opts.codes!.count(v, kappa, makeRng(deriveSeed(opts.seed ?? 1, 'inspect-planes', spec.name, n, kappa)))]);
    nn.push({ n, queries: m, mean: sum / m, median, within, ...(codes ? { codes } : {}) });
  }
  return { summary: loaded.summary, nn };
}

const pct = (x: number): string => (100 * x).toFixed(1) + '%';

/** Human-readable report (the `--json` form is the InspectReport itself). */
export function formatInspect(r: InspectReport, maxItems = 20): string {
  const s = r.summary;
  const out: string[] = [];
  out.push(`data set ${s.name} (${s.format}, center ${s.center})`);
  for (const i of s.inputs) out.push(`  input ${i.path}: ${i.bytes} bytes, sha256 ${i.sha256}`);
  out.push(`  rows read ${s.rowsRead}, skipped ${s.rowsSkipped}${s.skippedLines.length ? ` (lines ${s.skippedLines.join(', ')}${s.rowsSkipped > s.skippedLines.length ? ', …' : ''})` : ''}`);
  out.push(`  users ${s.users}, items ${s.items}, (user, item) pairs ${s.interactions}`);
  for (const d of s.perDim) {
    const nn = r.nn.find((x) => x.n === d.n)!;
    out.push(`n = ${d.n}: users kept ${d.usersKept}, dropped ${d.usersDropped}, mean non-zeros ${d.meanNnz.toFixed(2)}`);
    out.push(`  items (most popular first): ${d.itemIds.slice(0, maxItems).join(' ')}${d.itemIds.length > maxItems ? ` … (${d.itemIds.length}; all with --json)` : ''}`);
    if (nn.queries === 0) {
      out.push(`  true 1-NN angular distance: not defined (fewer than 2 users kept)`);
      continue;
    }
    out.push(`  true 1-NN angular distance over ${nn.queries} queries: mean ${nn.mean.toFixed(4)}, median ${nn.median.toFixed(4)}`);
    out.push('  share within ' + nn.within.map(([t, x]) => `${t.toFixed(1)}: ${pct(x)}`).join(', '));
    if (nn.codes) out.push(`  distinct LSH codes of the ${d.usersKept} users (one draw of hyperplanes): ${nn.codes.map(([k, c]) => `κ ${k}: ${c}`).join(', ')}`);
  }
  return out.join('\n') + '\n';
}
