/**
 * The one walk over a finished grid that every evaluation's file and per-trial values come from
 * (docs/ARCHITECTURE.md, "Evaluations"): per data set and n its baseline rows (the evaluation's
 * own), then per κ, k (where the evaluation has a k axis), mechanism entry (config order), ξ
 * (config order) and the evaluation's other axes (its config block's lists: N, known) one row with
 * the value of every trial, read from the evaluation's store by its `point` hook. The CSV text is
 * built from the evaluation's columns (src/evaluations/<name>/facts.ts): the coordinates, then
 * each metric's mean and standard error over the trials, `trials`, and the row's other values;
 * the concentration columns follow where the config has a directional mechanism. Numbers are
 * written with String(x) (`inf` when unbounded), in the same order whatever computed the records.
 */
import type { ExperimentConfig, MechanismEntry } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { columnsOf } from '../evaluations/types.js';
import { exactKey, resultSpecs, trialKey } from './grid.js';
import { UserError } from '../util/errors.js';
import { CONCENTRATION_COLUMNS } from './columns.js';

/** A value of a column that is not a mean: a count, a setting, an ε. */
export type Extra = string | number | boolean | null;

/** Where a row sits beyond (data set, n, κ, mechanism, ξ): k (null where the row has none) and the other axes. */
export interface Point {
  k: number | null;
  /** the evaluation's axes beyond k (top, known), by name */
  at: Record<string, number>;
}

/** One trial's values of a row: each metric's (by stem), the row's other values, and what the result's ξ meant. */
export interface TrialPoint {
  values: Record<string, number>;
  extra?: Record<string, Extra>;
  eps?: EpsilonInfo;
}

/** One row of an evaluation's file with the value of every trial behind it (trial order; baselines: one). */
export interface WalkedRow extends Point {
  dataset: string;
  n: number;
  kappa: number | null;
  mechanism: string;
  base: string;
  accountant: string | null;
  xi: number | null;
  /** per metric stem: the per-trial values */
  values: Record<string, number[]>;
  /** the other columns' values, by column name */
  extra: Record<string, Extra>;
  /** the mechanism (null for a baseline) and its own ε (the concentration column of the directional ones) */
  info: MechanismInfo | null;
  own: number | null;
}

/** What an evaluation tells the walk: its facts, how to read one trial's value, and its baselines. */
export interface RowHooks<R = unknown> {
  facts: EvaluationFacts;
  /**
   * One trial's values of result `id` at `point`, from the trial cell's record in the evaluation's
   * store (`facts.store`), or undefined when the record lacks them. `R` is that record's type as the
   * unit stores it (`RowHooks<CellRecord>`, `RowHooks<AttackRecord>`): the walk hands over what it
   * read from the store, and the lists hold every unit's hooks as `RowHooks` (a method's parameter
   * is compared both ways), so a unit types its record once, without a cast.
   */
  point(record: R, id: string, point: Point): TrialPoint | undefined;
  /**
   * The rows of a (data set, n) before its κ rows (the exact rows, the baselines), from its exact
   * cell's record or from the trial cells' records of each κ in the evaluation's store (trial order).
   */
  baselines?(cfg: ExperimentConfig, exact: unknown, dataset: string, n: number, trialRecords: (kappa: number) => unknown[]): WalkedRow[];
  /** Columns a row takes from its mechanism and what its ξ meant (utility.csv's ε columns). */
  rowExtra?(info: MechanismInfo, eps: EpsilonInfo): Record<string, Extra>;
  /** What a missing value is called in an error ("recommendation values"). */
  noun?: string;
}

/** The records of a grid by store folder (`cells`, `attack`): folder → cell key → record. */
export type StoredRecords = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

/**
 * Mean and standard error (sample sd / sqrt(m)), summed in the given order. With one value the
 * standard error is unknown: null (written as an empty field, "n/a" in tables), never 0.
 */
export function meanSe(values: readonly number[]): { mean: number; se: number | null } {
  const m = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / m;
  if (m < 2) return { mean, se: null };
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return { mean, se: Math.sqrt(ss / (m - 1)) / Math.sqrt(m) };
}

/**
 * The accountant column of an entry: its `accountant` option where the mechanism has accountants,
 * or its `guarantee` (jl-gaussian's choice of the statement σ is solved for plays the accountant's
 * part); empty for the default.
 */
export function accountantOf(m: MechanismEntry): string | null {
  for (const key of ['accountant', 'guarantee']) if (typeof m.options[key] === 'string') return m.options[key] as string;
  return null;
}

/** The values of the other axes of an evaluation (its config block's list of the same name), every combination in order. */
function innerPoints(cfg: ExperimentConfig, facts: EvaluationFacts): Record<string, number>[] {
  let points: Record<string, number>[] = [{}];
  for (const axis of facts.axes) {
    if (axis === 'k') continue;
    const block = facts.block ? (cfg as unknown as Record<string, Record<string, unknown> | undefined>)[facts.block] : undefined;
    const values = block?.[axis];
    if (!Array.isArray(values)) throw new RangeError(`evaluation ${facts.name}: its config block has no list ${axis}`);
    points = points.flatMap((p) => (values as number[]).map((v) => ({ ...p, [axis]: v })));
  }
  return points;
}

/** Every row of an evaluation's file, in file order, with its per-trial values; a one-line error naming a missing record or value. */
export function walkRows(cfg: ExperimentConfig, stores: StoredRecords, hooks: RowHooks, info: (name: string) => MechanismInfo): WalkedRow[] {
  const { facts } = hooks;
  const cells = stores.get('cells');
  const own = stores.get(facts.store);
  if (!cells || !own) throw new RangeError(`walkRows: no records of the store folder ${own ? 'cells' : facts.store}`);
  const ks = facts.axes.includes('k') ? cfg.k : [null];
  const inner = innerPoints(cfg, facts);
  const rows: WalkedRow[] = [];
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const trialsOf = (kappa: number) =>
        Array.from({ length: cfg.trials }, (_, t) => {
          const key = trialKey(ds.name, n, kappa, t, cfg.recommend);
          const rec = own.get(key);
          if (rec === undefined) throw new UserError(`results store: ${recordName(facts, key)} is missing; run again to compute it`);
          return { key, rec };
        });
      if (hooks.baselines) rows.push(...hooks.baselines(cfg, cells.get(exactKeyOf(cfg, ds.name, n)), ds.name, n, (kappa) => trialsOf(kappa).map((t) => t.rec)));
      for (const kappa of cfg.kappa) {
        const trials = trialsOf(kappa);
        // the cell's own (entry × ξ): an entry's per-cell ξ in the cells they name only
        const expansion = resultSpecs(cfg.mechanisms, cfg.privacy.xi, info, { dataset: ds.name, n, kappa });
        for (const k of ks) {
          for (const { entry, xi, spec } of expansion) {
            const mi = info(entry.name);
            for (const at of inner) {
              const point = { k, at };
              const got = trials.map(({ key, rec }) => {
                const v = hooks.point(rec, spec.id, point);
                if (!v) throw new UserError(`results store: ${recordName(facts, key)} has no ${hooks.noun ?? 'value'} of result ${spec.id} at ${describe(point)}; run again to compute it`);
                return v;
              });
              const values: Record<string, number[]> = {};
              for (const m of facts.metrics) values[m.stem] = got.map((g) => g.values[m.stem]!);
              const eps = got[0]!.eps;
              rows.push({
                dataset: ds.name,
                n,
                kappa: mi.usesKappa ? kappa : null,
                k,
                at,
                mechanism: entry.label,
                base: entry.name,
                accountant: accountantOf(entry),
                xi,
                values,
                extra: { ...got[0]!.extra, ...(hooks.rowExtra && eps ? hooks.rowExtra(mi, eps) : {}) },
                info: mi,
                own: eps?.epsilon ?? null,
              });
            }
          }
        }
      }
    }
  }
  return rows;
}

/** How an error names a record: `cell <key>` in cells/, else its file in its store folder. */
const recordName = (facts: EvaluationFacts, key: string): string => (facts.store === 'cells' ? `cell ${key}` : `${facts.store}/${key}.json`);

const describe = (p: Point): string => [...(p.k === null ? [] : [`k=${p.k}`]), ...Object.entries(p.at).map(([a, v]) => `${a}=${v}`)].join(', ') || 'its point';

/** The exact cell key of a (data set, n) (grid.ts exactKey, with the run's split). */
const exactKeyOf = (cfg: ExperimentConfig, dataset: string, n: number): string => exactKey(dataset, n, cfg.recommend);

/** A number as written in every CSV: shortest round-trip form; empty when absent; `inf` when unbounded. */
export const csvNumber = (x: number | null | undefined): string => (x === null || x === undefined ? '' : x === Infinity ? 'inf' : String(x));

function csvExtra(v: Extra | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return typeof v === 'number' ? csvNumber(v) : v;
}

/** Whether the config's files carry the concentration columns (a directional mechanism in the run). */
export function hasDirectional(cfg: ExperimentConfig, info: (name: string) => MechanismInfo): boolean {
  return cfg.mechanisms.some((m) => info(m.name).epsilonKind === 'concentration');
}

/** An evaluation's CSV text from its walked rows. */
export function evaluationCsv(facts: EvaluationFacts, rows: readonly WalkedRow[], directional: boolean): string {
  const columns = columnsOf(facts);
  const stems = new Map<string, { stem: string; se: boolean }>(
    facts.metrics.flatMap((m) => [
      [`${m.stem}_mean`, { stem: m.stem, se: false }],
      [`${m.stem}_se`, { stem: m.stem, se: true }],
    ]),
  );
  const lines = [directional ? [...columns, ...CONCENTRATION_COLUMNS].join(',') : columns.join(',')];
  for (const r of rows) {
    const stats = new Map(facts.metrics.map((m) => [m.stem, meanSe(r.values[m.stem]!)]));
    const trials = r.values[facts.metrics[0]!.stem]!.length;
    const cells = columns.map((c) => {
      const metric = stems.get(c);
      if (metric) {
        const s = stats.get(metric.stem)!;
        return csvNumber(metric.se ? s.se : s.mean);
      }
      switch (c) {
        case 'dataset':
        case 'mechanism':
        case 'base':
          return r[c];
        case 'n':
          return String(r.n);
        case 'kappa':
          return csvNumber(r.kappa);
        case 'k':
          // an axis of the rows, or (attribute inference) one setting of the block
          return r.k !== null ? csvNumber(r.k) : csvExtra(r.extra.k);
        case 'accountant':
          return r.accountant ?? '';
        case 'xi':
          return csvNumber(r.xi);
        case 'trials':
          return String(trials);
        default:
          return c in r.at ? csvNumber(r.at[c]) : csvExtra(r.extra[c]);
      }
    });
    if (directional) cells.push(...(r.info?.epsilonKind === 'concentration' ? [csvNumber(r.own), r.info.concentrationMetric ?? ''] : ['', '']));
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}

/** An evaluation's file as the run writes it: the walk of the grid's records, then its CSV text. */
export function evaluationFile(hooks: RowHooks, cfg: ExperimentConfig, stores: StoredRecords, info: (name: string) => MechanismInfo): string {
  return evaluationCsv(hooks.facts, walkRows(cfg, stores, hooks, info), hasDirectional(cfg, info));
}
