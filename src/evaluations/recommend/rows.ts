/**
 * recommend.csv's rows (docs/RECOMMEND.md, docs/OUTPUTS.md) from the walk of
 * src/experiment/walk.ts: per (data set, n) the baselines first (`exact` per k and N, then `pop`
 * per N, one value each), then per κ, k, mechanism entry, ξ and N the per-trial HR@N, NDCG@N and
 * item recall@N.
 */
import type { ExperimentConfig } from '../../experiment/config/schema.js';
import type { CellRecord, ExactRecord } from '../../experiment/records.js';
import { exactKey } from '../../experiment/grid.js';
import type { RowHooks, WalkedRow } from '../../experiment/walk.js';
import type { RecommendTrialValue } from '../../experiment/trialValues.js';
import { UserError } from '../../util/errors.js';
import type { RecommendTriple } from './lists.js';
import { RECOMMEND_FACTS } from './facts.js';

/** The baselines' names in the mechanism and base columns. */
export const EXACT_BASELINE = 'exact';
export const POP_BASELINE = 'pop';

function missing(key: string, what: string): UserError {
  return new UserError(`results store: cell ${key} has no recommendation values ${what}; run again to compute them`);
}

const triple = (v: RecommendTriple) => ({ hr: [v[0]], ndcg: [v[1]], item_recall: [v[2]] });

/** The baseline rows of one (data set, n): `exact` per k and N, then `pop` per N. */
function baselineRows(cfg: ExperimentConfig, record: unknown, dataset: string, n: number): WalkedRow[] {
  const exact = record as ExactRecord | undefined;
  if (exact?.kind !== 'exact') throw new UserError(`results store: cell ${exactKey(dataset, n, cfg.recommend)} is missing; run again to compute it`);
  const top = cfg.recommend!.top;
  const base = { dataset, n, kappa: null, accountant: null, xi: null, extra: { queries: exact.queries }, info: null, own: null };
  const rows: WalkedRow[] = [];
  for (const k of cfg.k) {
    for (const N of top) {
      const v = exact.rec?.exact[String(k)]?.[String(N)];
      if (!v) throw missing(exact.key, `of the exact baseline for k=${k}, N=${N}`);
      rows.push({ ...base, k, at: { top: N }, mechanism: EXACT_BASELINE, base: EXACT_BASELINE, values: triple(v) });
    }
  }
  for (const N of top) {
    const v = exact.rec?.pop[String(N)];
    if (!v) throw missing(exact.key, `of the pop baseline for N=${N}`);
    rows.push({ ...base, k: null, at: { top: N }, mechanism: POP_BASELINE, base: POP_BASELINE, values: triple(v) });
  }
  return rows;
}

export const RECOMMEND_ROWS: RowHooks<CellRecord> = {
  facts: RECOMMEND_FACTS,
  noun: 'recommendation values',
  point(rec, id, { k, at }) {
    if (rec.kind !== 'trial') return undefined;
    const result = rec.results[id];
    const v = result?.rec?.[String(k)]?.[String(at.top)];
    return v ? { values: { hr: v[0], ndcg: v[1], item_recall: v[2] }, extra: { queries: rec.queries }, eps: result.eps } : undefined;
  },
  baselines: baselineRows,
};

/** The per-trial values of recommend.csv's rows (baselines: trial 0), in file order. */
export function recommendTrialValues(rows: readonly WalkedRow[]): RecommendTrialValue[] {
  return rows.flatMap((r) =>
    r.values.hr!.map((hr, trial) => ({
      dataset: r.dataset,
      n: r.n,
      kappa: r.kappa,
      k: r.k,
      mechanism: r.mechanism,
      base: r.base,
      accountant: r.accountant,
      xi: r.xi,
      top: r.at.top!,
      trial,
      hr,
      ndcg: r.values.ndcg![trial]!,
      itemRecall: r.values.item_recall![trial]!,
      queries: r.extra.queries as number,
    })),
  );
}
