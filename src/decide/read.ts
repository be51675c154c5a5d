/**
 * A results folder's cells for the matched tables: per (data set, n, κ) at the chosen k, known share
 * and auxiliary share, each privatized entry's per-trial attack successes and utility loss over its
 * ξ grid, clean LSH's, u_rand, and what the accountant says at any ξ (for ε_LDP at ξ*).
 */
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { AttackTrialValue, InferTrialValue, RecommendTrialValue, TrialValue } from '../experiment/trialValues.js';
import { ndcgReader, type NdcgReader } from './recommend.js';
import { readResultsConfig, readStores, trialValuesOf } from '../machinery/readFolder.js';
import { CELLS_FOLDER } from '../machinery/store.js';
import { evaluationValues } from '../experiment/values.js';
import { evaluationNamed } from '../evaluations/catalog.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import type { CellRecord } from '../experiment/records.js';
import { getMechanism } from '../mechanisms/registry.js';
import { cannotBeReleased } from '../mechanisms/releasable.js';
import { getFamily } from '../lsh/families/index.js';
import { epsilonOnFamily } from '../privacy/onFamily.js';
import { nearest } from '../util/nearest.js';
import { UserError } from '../util/errors.js';
import { isLsh } from '../claims/grid.js';
import { NULL_BASELINE } from '../evaluations/infer/store.js';
import type { EntrySeries } from './matched.js';
import { randomLossOf } from './randomLoss.js';

/** What a table is matched on: reid@1 at `known` ≤ T, and/or the auc advantage over null at `aux` ≤ T. */
export interface Targets {
  reid1: number | null;
  aucAdv: number | null;
  /** the utility loss's k, the attack's known share, the inference's auxiliary share: the grid's nearest to these */
  k: number;
  known: number;
  aux: number;
}

/** Where a matched table stands: its cell of the grid and the attacks' shares (null: no such attack). */
export interface MatchedCellKey {
  dataset: string;
  n: number;
  kappa: number;
  k: number;
  known: number | null;
  aux: number | null;
}

/** A cell's six placing fields alone, in their order (the first columns of matched.csv, its tables and matched_curve.csv). */
export const cellKeyOf = (c: MatchedCellKey): MatchedCellKey => ({ dataset: c.dataset, n: c.n, kappa: c.kappa, k: c.k, known: c.known, aux: c.aux });

export interface FolderCell extends MatchedCellKey {
  trials: number;
  /** target values in the order of each entry's `success` (reid@1 first when given) */
  targets: number[];
  targetNames: ('reid1' | 'auc_adv')[];
  entries: (EntrySeries & { base: string; options: Record<string, unknown> })[];
  lsh?: { loss: number[]; success: number[][] };
  uRand: number | null;
  /** with recommendations: NDCG@top's baselines at (data set, n) */
  ndcg?: { top: number; pop: number | null; exact: number | null };
  /** entries left out, with why */
  skipped: string[];
}

export interface FolderCells {
  config: ExperimentConfig;
  cells: FolderCell[];
  /** ε_LDP of an entry at ξ (its accountant at that ξ), null where none is stated */
  epsilonLdp(cell: FolderCell, label: string, xi: number): number | null;
}

type Key = string;
export const key = (...parts: (string | number | null)[]): Key => parts.join('\u0000');

/** Per-trial values grouped by key: key → trial → value. */
export function byTrial<V extends { trial: number }>(values: readonly V[], keyOf: (v: V) => Key, read: (v: V) => number): Map<Key, Map<number, number>> {
  const out = new Map<Key, Map<number, number>>();
  for (const v of values) {
    const k = keyOf(v);
    const m = out.get(k) ?? new Map<number, number>();
    out.set(k, m);
    m.set(v.trial, read(v));
  }
  return out;
}

/** The m trial values 0..m−1 of a map, or null when one is missing. */
export function complete(m: Map<number, number> | undefined, trials: number): number[] | null {
  if (!m) return null;
  const out: number[] = [];
  for (let t = 0; t < trials; t++) {
    const v = m.get(t);
    if (v === undefined) return null;
    out.push(v);
  }
  return out;
}

/**
 * The folder's utility values and, where a target needs them, its attack and inference values,
 * from one read of its stores (reading each evaluation's values apart would read cells/ again for
 * each: most of choose's time on the shared folder).
 */
function readValues(
  dir: string,
  targets: Targets,
  given?: ExperimentConfig,
): { config: ExperimentConfig; records: Map<string, CellRecord>; values: TrialValue[]; attack: AttackTrialValue[]; infer: InferTrialValue[]; recommend: RecommendTrialValue[] } {
  const { manifest, config } = given ? { manifest: null, config: given } : readResultsConfig(dir);
  if (manifest?.shard) throw new UserError(`${dir} is shard ${manifest.shard.index}/${manifest.shard.count} of a sharded run; combine the shards with lshdp merge first`);
  const needed: string[] = [...(targets.reid1 !== null ? [ATTACK_FACTS.name] : []), ...(targets.aucAdv !== null ? [INFER_FACTS.name] : [])];
  for (const name of needed) {
    const facts = evaluationNamed(name);
    if (facts.block !== null && (config as unknown as Record<string, unknown>)[facts.block] === undefined) {
      throw new UserError(`${dir}: no ${facts.title.toLowerCase()} values (its config has no ${facts.block} block; ${facts.docs})`);
    }
  }
  const stores = readStores(dir, config);
  const records = stores.get(CELLS_FOLDER) as Map<string, CellRecord>;
  const { values } = trialValuesOf(config, records, dir);
  const of = <V>(name: string): V[] => (needed.includes(name) ? evaluationValues<V>(name, config, stores) : []);
  // the recommendations' NDCG beside u*, read when the config has them (they are in no target)
  const recommend = config.recommend ? evaluationValues<RecommendTrialValue>(RECOMMEND_FACTS.name, config, stores) : [];
  return { config, records, values, attack: of<AttackTrialValue>(ATTACK_FACTS.name), infer: of<InferTrialValue>(INFER_FACTS.name), recommend };
}

/** Per-trial lookups of one folder at the chosen k, known share and aux share. */
interface Lookups {
  trials: number;
  names: ('reid1' | 'auc_adv')[];
  loss: Map<Key, Map<number, number>>;
  reid: Map<Key, Map<number, number>>;
  auc: Map<Key, Map<number, number>>;
  nulls: Map<Key, Map<number, number>>;
  ndcg: NdcgReader | null;
}

const pointKey = (v: { dataset: string; n: number; kappa: number | null; mechanism: string }, xi: number | null): Key => key(v.dataset, v.n, v.kappa, v.mechanism, xi);

/** Per target, the per-trial successes of an entry at ξ (the auc advantage paired with null's trials); null when one is missing. */
function successOf(l: Lookups, v: { dataset: string; n: number; kappa: number; mechanism: string }, xi: number | null): number[][] | null {
  const out: number[][] = [];
  for (const name of l.names) {
    if (name === 'reid1') {
      const r = complete(l.reid.get(pointKey(v, xi)), l.trials);
      if (!r) return null;
      out.push(r);
    } else {
      const a = complete(l.auc.get(pointKey(v, xi)), l.trials);
      const z = complete(l.nulls.get(key(v.dataset, v.n, v.kappa)), l.trials);
      if (!a || !z) return null;
      out.push(a.map((x, t) => x - z[t]));
    }
  }
  return out;
}

type FolderEntry = FolderCell['entries'][number];

/** One privatized entry of a cell over its ξ grid, or null when a ξ lacks trials or values. */
function entryOf(l: Lookups, v: { dataset: string; n: number; kappa: number; mechanism: string; base: string }, xis: number[], options: Record<string, unknown>): FolderEntry | null {
  const entry: FolderEntry = { label: v.mechanism, base: v.base, options, xis, success: l.names.map(() => []), loss: [], releasable: !cannotBeReleased(getMechanism(v.base)) };
  const ndcg: number[][] = [];
  for (const xi of xis) {
    const loss = complete(l.loss.get(pointKey(v, xi)), l.trials);
    const s = successOf(l, v, xi);
    if (!loss || !s) return null;
    entry.loss.push(loss);
    for (let g = 0; g < s.length; g++) entry.success[g].push(s[g]);
    const r = l.ndcg?.at(v.dataset, v.n, v.kappa, v.mechanism, xi, l.trials);
    if (r) ndcg.push(r);
  }
  if (ndcg.length === xis.length) entry.ndcg = ndcg;
  return entry;
}

/**
 * The cells of a finished results folder for these targets (one-line errors for what the folder
 * lacks). `grid`: the folder's config when the caller has read it (choose), or the config its stores
 * are read for when they are ahead of its files (calibrate's rounds); default: the folder's manifest.
 */
export function readFolderCells(dir: string, targets: Targets, grid?: ExperimentConfig): FolderCells {
  if (targets.reid1 === null && targets.aucAdv === null) throw new UserError('lshdp choose: give a target (--reid1 T or --auc-adv T, or a decide: block in the config)');
  const { config, records, values, attack, infer, recommend } = readValues(dir, targets, grid);
  const k = nearest(new Set(values.map((v) => v.k)), targets.k)!;
  const known = targets.reid1 !== null ? (nearest(new Set(attack.map((v) => v.known)), targets.known) ?? null) : null;
  const aux = targets.aucAdv !== null ? (nearest(new Set(infer.map((v) => v.aux)), targets.aux) ?? null) : null;
  const names: ('reid1' | 'auc_adv')[] = [...(targets.reid1 !== null ? ['reid1' as const] : []), ...(targets.aucAdv !== null ? ['auc_adv' as const] : [])];
  const ts = [targets.reid1, targets.aucAdv].filter((t): t is number => t !== null);
  const attackAt = attack.filter((v) => v.known === known);
  const inferAt = infer.filter((v) => v.aux === aux);
  const l: Lookups = {
    trials: config.trials,
    names,
    loss: byTrial(
      values.filter((v: TrialValue) => v.k === k),
      (v) => pointKey(v, v.xi),
      (v) => v.loss,
    ),
    reid: byTrial(
      attackAt,
      (v) => pointKey(v, v.xi),
      (v) => v.reid1,
    ),
    auc: byTrial(
      inferAt.filter((v) => v.base !== null),
      (v) => pointKey(v, v.xi),
      (v) => v.auc,
    ),
    nulls: byTrial(
      inferAt.filter((v) => v.mechanism === NULL_BASELINE),
      (v) => key(v.dataset, v.n, v.kappa),
      (v) => v.auc,
    ),
    ndcg: ndcgReader(recommend, k),
  };
  const options = new Map(config.mechanisms.map((m) => [m.label, m.options as Record<string, unknown>]));
  const uRandOf = randomLossOf(dir, { config, records });
  // the attacked series (either evaluation's) name the cells and the entries
  const series = names[0] === 'reid1' ? attackAt : inferAt.filter((v) => v.base !== null);
  const xisOf = new Map<Key, Set<number>>();
  for (const v of series) if (v.xi !== null) xisOf.set(pointKey(v, null), (xisOf.get(pointKey(v, null)) ?? new Set()).add(v.xi));
  const cells = new Map<Key, FolderCell>();
  const seen = new Set<Key>();
  for (const v of series) {
    if (v.kappa === null || v.base === null || seen.has(pointKey(v, null))) continue;
    seen.add(pointKey(v, null));
    const at = { dataset: v.dataset, n: v.n, kappa: v.kappa, mechanism: v.mechanism, base: v.base };
    const ck = key(v.dataset, v.n, v.kappa);
    const cell = cells.get(ck) ?? {
      dataset: v.dataset,
      n: v.n,
      kappa: v.kappa,
      k,
      known,
      aux,
      trials: config.trials,
      targets: ts,
      targetNames: names,
      entries: [],
      uRand: uRandOf(v.dataset, v.n, k),
      skipped: [],
    };
    if (!cells.has(ck) && l.ndcg) cell.ndcg = { top: l.ndcg.top, pop: l.ndcg.pop(v.dataset, v.n), exact: l.ndcg.exact(v.dataset, v.n) };
    cells.set(ck, cell);
    if (isLsh({ base: v.base })) {
      const loss = complete(l.loss.get(pointKey(v, null)), config.trials);
      const s = successOf(l, at, null);
      if (loss && s) cell.lsh = { loss, success: s };
      continue;
    }
    if (v.xi === null) continue;
    const entry = entryOf(
      l,
      at,
      [...xisOf.get(pointKey(v, null))!].sort((a, b) => a - b),
      options.get(v.mechanism) ?? {},
    );
    if (entry) cell.entries.push(entry);
    else cell.skipped.push(`${v.mechanism}: missing trials or values`);
  }
  return { config, cells: [...cells.values()], epsilonLdp: epsilonLdpOf(config) };
}

/** ε_LDP of a cell's entry at ξ: its accountant at that ξ on the folder's family (not interpolated). */
function epsilonLdpOf(config: ExperimentConfig): FolderCells['epsilonLdp'] {
  const family = getFamily(config.metric ?? 'angular');
  const privacy = { d: config.privacy.d, delta: config.privacy.delta };
  return (cell, label, xi) => {
    const e = cell.entries.find((x) => x.label === label);
    if (!e || !Number.isFinite(xi)) return null;
    return epsilonOnFamily(getMechanism(e.base), family.disagreement, xi, cell.kappa, privacy, e.options).ldpEpsilon;
  };
}
