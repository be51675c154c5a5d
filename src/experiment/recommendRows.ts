/**
 * recommend.csv (config `recommend`, docs/RECOMMEND.md and docs/OUTPUTS.md), rebuilt from the
 * results store in canonical order like utility.csv: per (data set, n) the baselines first (`exact`
 * per k and N, then `pop` per N, one value each), then per κ, k, mechanism entry (config order), ξ
 * (config order) and N the mean and standard error over the trials of HR@N, NDCG@N and item
 * recall@N. The per-trial values behind each row are what readRecommendValues returns.
 */
import type { ExperimentConfig } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { exactKey, resultSpecs, trialKey } from './grid.js';
import type { CellRecord, ExactRecord, TrialRecord } from './records.js';
import type { RecommendTriple } from './recommend.js';
import { UserError } from '../util/errors.js';
import { CONCENTRATION_COLUMNS, RECOMMEND_HEADER } from './columns.js';
import { accountantOf, meanSe } from './aggregate.js';
import type { RecommendCoordinates } from './trialValues.js';

/** The baselines' names in the mechanism and base columns. */
export const EXACT_BASELINE = 'exact';
export const POP_BASELINE = 'pop';

/** One row of recommend.csv with its per-trial values (trial order; baselines: one value). */
export interface RecommendRow extends RecommendCoordinates {
  hr: number[];
  ndcg: number[];
  itemRecall: number[];
  queries: number;
  /** directional mechanisms: their concentration and the distance it is private for */
  concentration: number | null;
  concentrationMetric: string | null;
}

function missing(key: string, what: string): UserError {
  return new UserError(`results store: cell ${key} has no recommendation values ${what}; run again to compute them`);
}

function split(values: RecommendTriple[]): Pick<RecommendRow, 'hr' | 'ndcg' | 'itemRecall'> {
  return { hr: values.map((v) => v[0]), ndcg: values.map((v) => v[1]), itemRecall: values.map((v) => v[2]) };
}

/** The baseline rows of one (data set, n): `exact` per k and N, then `pop` per N. */
function baselineRows(cfg: ExperimentConfig, exact: ExactRecord, dataset: string, n: number): RecommendRow[] {
  const top = cfg.recommend!.top;
  const base = { dataset, n, kappa: null, accountant: null, xi: null, queries: exact.queries, concentration: null, concentrationMetric: null };
  const rows: RecommendRow[] = [];
  for (const k of cfg.k) {
    for (const N of top) {
      const v = exact.rec?.exact[String(k)]?.[String(N)];
      if (!v) throw missing(exact.key, `of the exact baseline for k=${k}, N=${N}`);
      rows.push({ ...base, k, mechanism: EXACT_BASELINE, base: EXACT_BASELINE, top: N, ...split([v]) });
    }
  }
  for (const N of top) {
    const v = exact.rec?.pop[String(N)];
    if (!v) throw missing(exact.key, `of the pop baseline for N=${N}`);
    rows.push({ ...base, k: null, mechanism: POP_BASELINE, base: POP_BASELINE, top: N, ...split([v]) });
  }
  return rows;
}

/** The rows of one (data set, n, κ): per k, entry, ξ and N, the values of every trial. */
function trialRows(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo, dataset: string, n: number, kappa: number): RecommendRow[] {
  const trials: TrialRecord[] = [];
  for (let t = 0; t < cfg.trials; t++) {
    const key = trialKey(dataset, n, kappa, t, cfg.recommend);
    const rec = records.get(key);
    if (rec?.kind !== 'trial') throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
    trials.push(rec);
  }
  const rows: RecommendRow[] = [];
  for (const k of cfg.k) {
    for (const { entry, xi, spec } of resultSpecs(cfg.mechanisms, cfg.privacy.xi, info)) {
      const mi = info(entry.name);
      const directional = mi.epsilonKind === 'concentration';
      for (const N of cfg.recommend!.top) {
        const values = trials.map((tr) => {
          const v = tr.results[spec.id]?.rec?.[String(k)]?.[String(N)];
          if (!v) throw missing(tr.key, `of result ${spec.id} for k=${k}, N=${N}`);
          return v;
        });
        rows.push({
          dataset,
          n,
          kappa: mi.usesKappa ? kappa : null,
          k,
          mechanism: entry.label,
          base: entry.name,
          accountant: accountantOf(entry),
          xi,
          top: N,
          ...split(values),
          queries: trials[0].queries,
          concentration: directional ? trials[0].results[spec.id].eps.epsilon : null,
          concentrationMetric: directional ? (mi.concentrationMetric ?? null) : null,
        });
      }
    }
  }
  return rows;
}

/** Every row of recommend.csv, in file order, with its per-trial values. */
export function recommendRows(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo): RecommendRow[] {
  if (!cfg.recommend) throw new UserError('recommend: the config has no recommend block: there are no recommendation values');
  const rows: RecommendRow[] = [];
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const key = exactKey(ds.name, n, cfg.recommend);
      const exact = records.get(key);
      if (exact?.kind !== 'exact') throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
      rows.push(...baselineRows(cfg, exact, ds.name, n));
      for (const kappa of cfg.kappa) rows.push(...trialRows(cfg, records, info, ds.name, n, kappa));
    }
  }
  return rows;
}

/** A number as every CSV writes it: shortest round-trip form, empty when absent. */
const num = (x: number | null | undefined): string => (x === null || x === undefined ? '' : x === Infinity ? 'inf' : String(x));

/** recommend.csv's text (the concentration columns where the config has a directional mechanism, as utility.csv). */
export function recommendCsv(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo): string {
  const directional = cfg.mechanisms.some((m) => info(m.name).epsilonKind === 'concentration');
  const lines = [directional ? `${RECOMMEND_HEADER},${CONCENTRATION_COLUMNS.join(',')}` : RECOMMEND_HEADER];
  for (const r of recommendRows(cfg, records, info)) {
    const [hr, ndcg, itemRecall] = [meanSe(r.hr), meanSe(r.ndcg), meanSe(r.itemRecall)];
    const cells = [r.dataset, r.n, num(r.kappa), num(r.k), r.mechanism, r.base, r.accountant ?? '', num(r.xi), r.top];
    cells.push(num(hr.mean), num(hr.se), num(ndcg.mean), num(ndcg.se), num(itemRecall.mean), num(itemRecall.se), r.hr.length, r.queries);
    if (directional) cells.push(num(r.concentration), r.concentrationMetric ?? '');
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}
