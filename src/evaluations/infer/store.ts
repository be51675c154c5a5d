/**
 * Attribute inference's store folder (config `infer`, docs/ATTACKS.md): `infer/<trial cell
 * key>.json`, one record per trial cell beside `cells/` (the machinery's one store implementation,
 * src/machinery/recordStore.ts, reads and writes it). A cell's record holds one entry per (result
 * id, aux) and the cell's baselines per aux (`prior`, `null`), each with the hash of everything
 * that determines it, reused, grown and kept exactly as the linkage attack's entries are. Keeping
 * it apart is what lets a finished grid gain `infer` with every cell record's bytes unchanged.
 */
import type { EpsilonInfo } from '../../privacy/types.js';
import { sha256Hex, stableStringify } from '../../util/hash.js';
import type { OwnStore, PendingAsk } from '../measure.js';
import { INFER_FACTS } from './facts.js';
import { INFER_VERSION } from './inference.js';
import type { InferAsk, InferValue } from './measure.js';

/** One stored mean over a trial's targets. */
interface StoredMeans {
  hash: string;
  aux: number;
  k: number;
  auc: number;
  prec10: number;
  targets: number;
  /** compute time, ms; provenance only */
  ms: number;
}

/** A result's entry at one aux. */
export interface StoredInfer extends StoredMeans {
  id: string;
  base: string;
  options: Record<string, unknown>;
  xi: number | null;
  eps: EpsilonInfo;
}

/** The attack values of one trial cell: entries keyed by inferEntryKey (results) and baselineKey (`prior`, `null`). */
export interface InferRecord {
  format: number;
  key: string;
  kind: 'infer';
  entries: Record<string, StoredInfer | StoredMeans>;
}

/** 1: one entry per (result id, aux) and per (baseline, aux) (lshdp 0.3). */
export const INFER_STORE_FORMAT = 1;

/** The baselines, as infer.csv's mechanism column names them. */
export const PRIOR_BASELINE = 'prior';
export const NULL_BASELINE = 'null';
export const INFER_BASELINES = [PRIOR_BASELINE, NULL_BASELINE] as const;

/** A result's entry key in its cell's record. */
export const inferEntryKey = (resultId: string, aux: number): string => `${resultId}_aux${aux}`;
/** A baseline's entry key (parentheses: no result id has them). */
export const baselineKey = (baseline: string, aux: number): string => `(${baseline})_aux${aux}`;

/** The hash of a result's entry: the result's hash, aux, k, the number of targets and the attack's version. */
export function inferHash(resultHash: string, aux: number, k: number, targets: number): string {
  return sha256Hex(stableStringify({ infer: INFER_VERSION, result: resultHash, aux, k, targets }));
}

/** The hash of a baseline's entry: the exact cell's hash (input, seed, n), the trial, κ (null's codes and neighbours), the metric, aux, k and targets. */
export function baselineHash(baseline: string, exactHash: string, at: { kappa: number; trial: number; metric: string }, aux: number, k: number, targets: number): string {
  return sha256Hex(stableStringify({ infer: INFER_VERSION, baseline, exact: exactHash, ...at, aux, k, targets }));
}

const INFER_RECORD_KIND = 'infer';

/** Whether a record of `infer/` is whole and of the current format. */
export const isInferRecord = (rec: InferRecord): boolean => rec.format === INFER_STORE_FORMAT && rec.kind === INFER_RECORD_KIND && rec.entries !== null && typeof rec.entries === 'object';

export const INFER_STORE: OwnStore<InferAsk, InferRecord> = {
  where: 'own',
  accepts: isInferRecord,
  hashes(cfg, cells, results, resultHashes, usersOf, exactHashOf) {
    const out = new Map<string, Map<string, string>>();
    const b = cfg.infer;
    if (!b) return out;
    for (const c of cells) {
      const targets = Math.min(b.targets, usersOf(c));
      const rh = resultHashes.get(c.key)!;
      const hashes = new Map<string, string>();
      for (const aux of b.aux) {
        for (const name of INFER_BASELINES)
          hashes.set(baselineKey(name, aux), baselineHash(name, exactHashOf(c), { kappa: c.kappa, trial: c.trial, metric: cfg.metric ?? 'angular' }, aux, b.k, targets));
        for (const r of results) hashes.set(inferEntryKey(r.id, aux), inferHash(rh.get(r.id)!, aux, b.k, targets));
      }
      out.set(c.key, hashes);
    }
    return out;
  },
  pending(cfg, rec, results, hashes) {
    const todo: PendingAsk<InferAsk>[] = [];
    let total = 0;
    let reused = 0;
    const b = cfg.infer;
    if (!b) return { todo, total, reused };
    const fresh = (key: string) => rec?.entries[key]?.hash === hashes.get(key);
    // a baseline is computed with the results of its aux; one stale with every result fresh makes the first result computed again
    const staleBaseline = new Set(b.aux.filter((aux) => !INFER_BASELINES.every((name) => fresh(baselineKey(name, aux)))));
    for (const r of results) {
      const aux: number[] = [];
      for (const a of b.aux) {
        total++;
        if (fresh(inferEntryKey(r.id, a)) && !staleBaseline.has(a)) reused++;
        else aux.push(a);
      }
      if (aux.length > 0) todo.push({ spec: r, asked: { aux, k: b.k, targets: b.targets } });
      for (const a of aux) staleBaseline.delete(a);
    }
    return { todo, total, reused };
  },
  count: (asked) => asked.aux.length,
  merge(prev, key, todo, out, hashes, ms) {
    const entries: Record<string, StoredInfer | StoredMeans> = { ...(prev?.entries ?? {}) };
    const byId = new Map(out.map((r) => [r.id, r]));
    const count = todo.reduce((s, t) => s + t.asked.aux.length, 0);
    const each = Math.round(ms / Math.max(1, count));
    for (const { spec, asked } of todo) {
      const r = byId.get(spec.id);
      const value = r?.values[INFER_FACTS.name] as InferValue | undefined;
      for (const aux of asked.aux) {
        const v = value?.byAux.find((a) => a.aux === aux);
        if (!r || !value || !v) throw new Error(`trial cell ${key}: no inference value of ${spec.id} at aux ${aux} came back`);
        const means = (hash: string, m: { auc: number; prec10: number; targets: number }): StoredMeans => ({ hash, aux, k: value.k, auc: m.auc, prec10: m.prec10, targets: m.targets, ms: each });
        const entryKey = inferEntryKey(spec.id, aux);
        entries[entryKey] = { ...means(hashes.get(entryKey)!, v.means), id: spec.id, base: spec.base, options: spec.options, xi: spec.xi, eps: r.eps };
        for (const name of INFER_BASELINES) {
          const bk = baselineKey(name, aux);
          entries[bk] = { ...means(hashes.get(bk)!, name === PRIOR_BASELINE ? v.prior : v.null), ms: 0 };
        }
      }
    }
    const sorted: Record<string, StoredInfer | StoredMeans> = {};
    for (const id of Object.keys(entries).sort()) sorted[id] = entries[id]!;
    return { format: INFER_STORE_FORMAT, key, kind: INFER_RECORD_KIND, entries: sorted };
  },
};
