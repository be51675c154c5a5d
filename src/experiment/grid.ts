/**
 * The grid of a config as cells (docs/ARCHITECTURE.md): an exact cell per (dataset, n) and a trial
 * cell per (dataset, n, kappa, trial). Cells are the unit of work, of resume and of sharding; each
 * has a stable key (its file name in the store) and a hash of everything that determines it.
 */
import { deriveSeed } from '../random/rng.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { RecommendSplit } from '../data/types.js';
import type { ExperimentConfig, XiAt } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import type { TrialCellSpec } from './cellSpec.js';
import { ALGORITHM_VERSION } from './version.js';

export interface ExactCell {
  kind: 'exact';
  key: string;
  dataset: string;
  n: number;
}
export interface TrialCell {
  kind: 'trial';
  key: string;
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
}
export type Cell = ExactCell | TrialCell;

/**
 * The key suffix of a run with a recommendation split (config `recommend`): its vectors are the
 * training vectors, so its cells are cells of their own (`_rec-last-h1`); none without one, so
 * results without `recommend` keep their keys.
 */
export function splitSuffix(split?: RecommendSplit | null): string {
  return split ? `_rec-${split.split}-h${split.holdout}` : '';
}
export function exactKey(dataset: string, n: number, split?: RecommendSplit | null): string {
  return `exact_${dataset}_n${n}${splitSuffix(split)}`;
}
export function trialKey(dataset: string, n: number, kappa: number, trial: number, split?: RecommendSplit | null): string {
  return `trial_${dataset}_n${n}_kappa${kappa}_t${trial}${splitSuffix(split)}`;
}

/** Every cell of the config in canonical order: dataset, n, then the exact cell, then kappa, trial. */
export function expandCells(cfg: ExperimentConfig): Cell[] {
  const cells: Cell[] = [];
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      cells.push({ kind: 'exact', key: exactKey(ds.name, n, cfg.recommend), dataset: ds.name, n });
      for (const kappa of cfg.kappa) {
        for (let trial = 0; trial < cfg.trials; trial++) {
          cells.push({ kind: 'trial', key: trialKey(ds.name, n, kappa, trial, cfg.recommend), dataset: ds.name, n, kappa, trial });
        }
      }
    }
  }
  return cells;
}

/**
 * One result of a trial cell: a (base mechanism, options, xi) evaluated on the trial's hyperplanes.
 * Its identity is its content, never its label: entries that differ only in their label share it.
 */
export interface ResultSpec {
  /** stable key within a trial cell: `<base>_xi<xi>_<hash of options>` */
  id: string;
  base: string;
  options: Record<string, unknown>;
  /** null for mechanisms without a budget (lsh) */
  xi: number | null;
}

function xiText(xi: number | null): string {
  return xi === null ? 'none' : String(xi);
}

export function resultId(base: string, options: Record<string, unknown>, xi: number | null): string {
  return `${base}_xi${xiText(xi)}_${sha256Hex(stableStringify(options)).slice(0, 10)}`;
}

/** One (entry, ξ) of the expansion, with the result it reads or writes. */
export interface EntryResult<E> {
  entry: E;
  /** null for mechanisms without a budget (lsh) */
  xi: number | null;
  spec: ResultSpec;
}

/** Where on the grid a trial cell's results are: its data set, n and κ (an entry's per-cell ξ name them). */
export interface CellPlace {
  dataset: string;
  n: number;
  kappa: number;
}

/**
 * The (entry × ξ) expansion that the trial cells, utility.csv and the audit all start from: every
 * entry whose mechanism releases codes, with each ξ (or once with ξ null when the mechanism has no
 * budget), in config order (entry, then ξ). Two entries that differ only in label get the same spec.
 * With `cell`, the ξ of that cell (an entry's per-cell values: entryXi); without, every ξ any cell has.
 */
export function resultSpecs<E extends { name: string; options: Record<string, unknown>; xi?: readonly number[]; xiAt?: readonly XiAt[] }>(
  entries: readonly E[],
  xis: readonly number[],
  info: (name: string) => MechanismInfo,
  cell?: CellPlace,
): EntryResult<E>[] {
  const out: EntryResult<E>[] = [];
  for (const entry of entries) {
    const m = info(entry.name);
    if (m.kind !== 'code') continue;
    for (const xi of m.usesXi ? entryXi(entry, xis, cell) : [null]) out.push({ entry, xi, spec: { id: resultId(entry.name, entry.options, xi), base: entry.name, options: { ...entry.options }, xi } });
  }
  return out;
}

/** Whether an item of an entry's per-cell ξ names this cell (an omitted key matches every value). */
const names = (a: XiAt, c: CellPlace): boolean => (a.dataset === undefined || a.dataset === c.dataset) && (a.n === undefined || a.n === c.n) && (a.kappa === undefined || a.kappa === c.kappa);

/**
 * An entry's ξ grid: with its own values (`xi:`, a list for every cell or per cell), their union
 * with privacy.xi (`xis`), ascending: in `cell`, the values for every cell and those of the items
 * naming it; without a cell, every value of every item (what any cell may hold). Without own
 * values, `xis` itself in config order (so a config without per-entry ξ keeps its row order).
 */
export function entryXi(entry: { xi?: readonly number[]; xiAt?: readonly XiAt[] }, xis: readonly number[], cell?: CellPlace): readonly number[] {
  if (!entry.xi && !entry.xiAt) return xis;
  const own = [...(entry.xi ?? []), ...(entry.xiAt ?? []).flatMap((a) => (cell === undefined || names(a, cell) ? a.xi : []))];
  return [...new Set([...xis, ...own])].sort((a, b) => a - b);
}

/** An entry as the grid lines name it: its label, and its own ξ values when it has some (`lshrr (+ξ 2, 3.5)`, `vmf (+ξ 40; per cell: 12 lists)`). */
export const entryWithXi = (m: { label: string; xi?: readonly number[]; xiAt?: readonly XiAt[] }): string => {
  const own = [...(m.xi ? [`+ξ ${m.xi.join(', ')}`] : []), ...(m.xiAt ? [`per cell: ${m.xiAt.length} list${m.xiAt.length === 1 ? '' : 's'}`] : [])];
  return own.length > 0 ? `${m.label} (${own.join('; ')})` : m.label;
};

/** The distinct results a trial cell of this config may hold (every cell's: a superset where entries have per-cell ξ), in config order (entry, then xi). */
export function trialResults(cfg: ExperimentConfig, info: (name: string) => MechanismInfo): ResultSpec[] {
  const byId = new Map<string, ResultSpec>();
  for (const { spec } of resultSpecs(cfg.mechanisms, cfg.privacy.xi, info)) if (!byId.has(spec.id)) byId.set(spec.id, spec);
  return [...byId.values()];
}

/**
 * The distinct results of each trial cell: `results` (trialResults of the config) itself in every
 * cell when no entry has per-cell ξ, else per (data set, n, κ) those of its ξ, in the same order.
 */
export function cellResults(cfg: ExperimentConfig, results: readonly ResultSpec[], info: (name: string) => MechanismInfo): (cell: CellPlace) => readonly ResultSpec[] {
  if (!cfg.mechanisms.some((m) => m.xiAt)) return () => results;
  const byPlace = new Map<string, readonly ResultSpec[]>();
  return (cell) => {
    const key = `${cell.dataset}\u0000${cell.n}\u0000${cell.kappa}`;
    let mine = byPlace.get(key);
    if (!mine) {
      const ids = new Set(resultSpecs(cfg.mechanisms, cfg.privacy.xi, info, cell).map((r) => r.spec.id));
      mine = results.filter((r) => ids.has(r.id));
      byPlace.set(key, mine);
    }
    return mine;
  };
}

/**
 * What a trial cell must compute: the given results, each for the given k values and with what
 * each evaluation of the trial cell records asks of it (`asks`, by evaluation name), then what
 * the evaluations with stores of their own ask (`more`: the linkage attack's `known` values) of
 * the same results or of others (a result asked only of those gets no k).
 */
export function trialSpec(
  cfg: ExperimentConfig,
  cell: TrialCell,
  results: readonly { spec: ResultSpec; ks: number[]; asks: Record<string, unknown> }[],
  more: readonly { name: string; spec: ResultSpec; asked: unknown }[] = [],
): TrialCellSpec {
  const asked = results.map((r): TrialCellSpec['results'][number] => ({ id: r.spec.id, base: r.spec.base, options: { ...r.spec.options }, xi: r.spec.xi, ks: [...r.ks], asks: { ...r.asks } }));
  for (const a of more) {
    const r = asked.find((x) => x.id === a.spec.id);
    if (r) r.asks[a.name] = a.asked;
    else asked.push({ id: a.spec.id, base: a.spec.base, options: { ...a.spec.options }, xi: a.spec.xi, ks: [], asks: { [a.name]: a.asked } });
  }
  return {
    dataset: cell.dataset,
    n: cell.n,
    kappa: cell.kappa,
    trial: cell.trial,
    results: asked,
    privacy: { d: cfg.privacy.d, delta: cfg.privacy.delta },
    runSeed: cfg.seed,
    ...(cfg.metric && cfg.metric !== 'angular' ? { metric: cfg.metric } : {}),
    ...pluginRefs(cfg),
  };
}

/** The plugin modules of a config, for the workers to load (absent when there are none). */
function pluginRefs(cfg: ExperimentConfig): { plugins?: { name: string; file: string; sha256: string }[] } {
  const plugins = cfg.mechanisms.filter((m) => m.module !== undefined).map((m) => ({ name: m.name, file: m.module!, sha256: String(m.options.module_sha256) }));
  return plugins.length > 0 ? { plugins } : {};
}

/**
 * Hash of everything that determines an exact cell's numbers: the input, the seed and the number
 * of queries (which fix the query users), n, and the algorithms' version. Not k: a record holds
 * the rows of every k up to its kmax.
 */
export function exactHash(cfg: ExperimentConfig, cell: ExactCell, input: unknown): string {
  return sha256Hex(stableStringify({ algorithm: ALGORITHM_VERSION, input, seed: cfg.seed, queries: cfg.queries, cell: { kind: 'exact', dataset: cell.dataset, n: cell.n } }));
}

/**
 * Hash of everything that determines one result's numbers: the trial cell's coordinates, the
 * query users, the input, the result's identity, the privacy parameters when the mechanism turns
 * xi into noise (lsh ignores d and delta), and the algorithms' version. Never k (every k is a
 * prefix of one answer), never the label, never other results of the cell.
 */
export function resultHash(cfg: ExperimentConfig, cell: TrialCell, result: ResultSpec, input: unknown, info: (name: string) => MechanismInfo): string {
  // The hashed text is exactly stableStringify of the body below. A run hashes every result of
  // its grid (tens of thousands), so the text is assembled from parts written once: a template
  // per (config, input, base) with marks where the cell and the result go, the cell's JSON per
  // cell and the result's per result spec (stableStringify nests by concatenation, so putting a
  // part's JSON where its mark's is gives the same text).
  return sha256Hex(
    templateOf(cfg, result, input, info)
      .replace(CELL_MARK_JSON, () => cellJsonOf(cell))
      .replace(RESULT_MARK_JSON, () => resultJsonOf(result)),
  );
}

/**
 * Every result hash of the given trial cells (cell key → result id → resultHash; per cell, the
 * results `resultsOf` gives it: cellResults), as a run's plan needs them: each result's text is
 * split once around the cell's place, so a hash costs one concatenation and the SHA-256 (the same text as resultHash; profiled, the per-result assembly
 * was most of the plan of a growth of the shared MovieLens grid: 7,800 results).
 */
export function trialResultHashes(
  cfg: ExperimentConfig,
  cells: readonly TrialCell[],
  results: readonly ResultSpec[],
  inputOf: (dataset: string) => unknown,
  info: (name: string) => MechanismInfo,
  resultsOf: (cell: TrialCell) => readonly ResultSpec[] = () => results,
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const splitByInput = new Map<unknown, ({ head: string; tail: string } | null)[]>();
  const index = new Map(results.map((r, i) => [r.id, i]));
  for (const cell of cells) {
    const input = inputOf(cell.dataset);
    let split = splitByInput.get(input);
    if (!split) {
      split = results.map((r) => splitAroundCell(templateOf(cfg, r, input, info), resultJsonOf(r)));
      splitByInput.set(input, split);
    }
    const cellJson = cellJsonOf(cell);
    // (a cell whose JSON holds the result's mark would be replaced differently: assembled as resultHash does)
    const plain = !cellJson.includes(RESULT_MARK_JSON);
    const hashes = new Map<string, string>();
    // the cell's own results (cellResults), each from its split of the config's results
    for (const r of resultsOf(cell)) {
      const parts = split[index.get(r.id)!];
      hashes.set(r.id, parts && plain ? sha256Hex(parts.head + cellJson + parts.tail) : resultHash(cfg, cell, r, input, info));
    }
    out.set(cell.key, hashes);
  }
  return out;
}

/**
 * The template's text before the cell's mark, and after it with the result's JSON in place: the
 * text resultHash assembles is head + cellJson + tail whenever the first result mark follows the
 * first cell mark (stableStringify sorts "cell" before "result"); null otherwise.
 */
function splitAroundCell(template: string, resultJson: string): { head: string; tail: string } | null {
  const c = template.indexOf(CELL_MARK_JSON);
  const r = template.indexOf(RESULT_MARK_JSON);
  if (c < 0 || r < c + CELL_MARK_JSON.length) return null;
  return { head: template.slice(0, c), tail: template.slice(c + CELL_MARK_JSON.length, r) + resultJson + template.slice(r + RESULT_MARK_JSON.length) };
}

/** The body's text of a result with the two marks, per config, (base, usesXi, algorithm) and input. */
function templateOf(cfg: ExperimentConfig, result: ResultSpec, input: unknown, info: (name: string) => MechanismInfo): string {
  const mi = info(result.base);
  const parts = templatesOf(cfg);
  const templateKey = `${result.base}\u0000${mi.usesXi}\u0000${mi.algorithm ?? ''}`;
  let byInput = parts.get(templateKey);
  if (!byInput) {
    byInput = new Map();
    parts.set(templateKey, byInput);
  }
  const inputKey = input !== null && typeof input === 'object' ? input : JSON.stringify(input ?? null);
  let template = byInput.get(inputKey);
  if (template === undefined) {
    const body = {
      algorithm: ALGORITHM_VERSION,
      input,
      seed: cfg.seed,
      queries: cfg.queries,
      cell: CELL_MARK,
      result: RESULT_MARK,
      privacy: mi.usesXi ? { d: cfg.privacy.d, delta: cfg.privacy.delta } : null,
      // a mechanism's own algorithm version: a change to its draws recomputes its results only
      ...(mi.algorithm ? { mechanism_algorithm: mi.algorithm } : {}),
    };
    template = stableStringify(body);
    byInput.set(inputKey, template);
  }
  return template;
}

function cellJsonOf(cell: TrialCell): string {
  let cellJson = cellJsons.get(cell);
  if (cellJson === undefined) {
    cellJson = stableStringify({ dataset: cell.dataset, n: cell.n, kappa: cell.kappa, trial: cell.trial });
    cellJsons.set(cell, cellJson);
  }
  return cellJson;
}

function resultJsonOf(result: ResultSpec): string {
  let resultJson = resultJsons.get(result);
  if (resultJson === undefined) {
    resultJson = stableStringify({ base: result.base, options: result.options, xi: result.xi });
    resultJsons.set(result, resultJson);
  }
  return resultJson;
}

const CELL_MARK = '\u0000cell\u0000';
const CELL_MARK_JSON = JSON.stringify(CELL_MARK);
const RESULT_MARK = '\u0000result\u0000';
const RESULT_MARK_JSON = JSON.stringify(RESULT_MARK);
/** Per config: per (base, usesXi, algorithm) and input, the body's text with the two marks. */
const templates = new WeakMap<ExperimentConfig, Map<string, Map<unknown, string>>>();
function templatesOf(cfg: ExperimentConfig): Map<string, Map<unknown, string>> {
  let m = templates.get(cfg);
  if (!m) {
    m = new Map();
    templates.set(cfg, m);
  }
  return m;
}
const cellJsons = new WeakMap<TrialCell, string>();
const resultJsons = new WeakMap<ResultSpec, string>();

/** The seeds a cell draws from (recorded in the manifest for provenance). */
export function cellSeeds(cfg: ExperimentConfig, cell: Cell): Record<string, string> {
  const seeds: Record<string, string> = { queries: deriveSeed(cfg.seed, 'queries', cell.dataset, cell.n) };
  if (cell.kind === 'trial') seeds.planes = deriveSeed(cfg.seed, 'planes', cell.dataset, cell.n, cell.kappa, cell.trial);
  return seeds;
}
