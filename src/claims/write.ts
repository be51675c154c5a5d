/**
 * Claims of a results folder: read its per-trial values, evaluate, and write claims.json and
 * tables/claims.md (atomically). `lshdp claims`, and `lshdp run` / `merge` at their end, come
 * through `writeClaims`.
 */
import { join } from 'node:path';
import { readEvaluationValues, readResultsConfig, readTrialValues, trialValuesOf } from '../machinery/readFolder.js';
import { evaluationValues, type WalkedRows } from '../experiment/values.js';
import { evaluationsOf } from '../evaluations/catalog.js';
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';
import { CELLS_FOLDER } from '../machinery/store.js';
import type { OwnRecords } from '../machinery/ownStores.js';
import type { Manifest } from '../machinery/manifest.js';
import type { CellRecord } from '../experiment/records.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';
import { decideSettings } from '../decide/targets.js';
import { DEFAULT_ALPHA, evaluateClaims } from './evaluate.js';
import { claimsJson, claimsMarkdown, verdictCounts, verdictWithShare } from './format.js';
import type { ClaimResult, ClaimsConfig, ClaimsInput, Population } from './types.js';

/** The parts of an experiment config the claims read (the run's metric applies to every data set). */
export function claimsConfigOf(cfg: ExperimentConfig): ClaimsConfig {
  const metric: Record<string, string> = Object.fromEntries(cfg.datasets.map((d) => [d.name, cfg.metric ?? 'angular']));
  return {
    datasets: cfg.datasets.map((d) => d.name),
    dims: cfg.dims,
    kappa: cfg.kappa,
    k: cfg.k,
    xi: cfg.privacy.xi,
    d: cfg.privacy.d,
    delta: cfg.privacy.delta,
    trials: cfg.trials,
    queries: cfg.queries,
    metric,
    options: Object.fromEntries(cfg.mechanisms.map((m) => [m.label, m.options])),
    decide: decideSettings(cfg),
  };
}

/** Everything `evaluateClaims` needs, from a results folder (one-line errors for folders without per-trial values). */
export function readClaimsInput(dir: string): ClaimsInput {
  const { config, values, nn } = readTrialValues(dir);
  const { manifest } = readResultsConfig(dir);
  return onTheGrid({ config: claimsConfigOf(config), values, nn, population: populationOf(manifest), ...extraValuesOf(config, dir) });
}

/**
 * The input without the values at an entry's own ξ (a mechanism entry's `xi:`, e.g. added by
 * calibration): every claim but the matched ones compares the grid privacy.xi, so a folder with
 * extra per-entry ξ gets the verdicts the grid alone gets. Values without a ξ (lsh, exact, the
 * baselines) stay. The lists as they were go along under `entryXi`, for the matched claims, whose
 * crossings are read on each entry's whole ξ list (what calibration adds its values for).
 */
export function onTheGrid(input: ClaimsInput): ClaimsInput {
  const grid = new Set(input.config.xi);
  const off = (v: unknown) => v !== null && typeof v === 'object' && typeof (v as { xi?: unknown }).xi === 'number' && !grid.has((v as { xi: number }).xi);
  const lists = Object.entries(input).filter(([key, v]) => key !== 'config' && Array.isArray(v) && v.some(off));
  if (lists.length === 0) return input;
  return { ...input, ...Object.fromEntries(lists.map(([key, v]) => [key, (v as unknown[]).filter((x) => !off(x))])), entryXi: Object.fromEntries(lists) };
}

/** The evaluations beyond utility a config evaluates (recommendations, the linkage attack…): their values go to the claims under their names. */
const optionalIn = (config: ExperimentConfig) => evaluationsOf(config).filter((e) => e.name !== UTILITY_FACTS.name);

/**
 * The per-trial values of the optional evaluations, read from the folder when the config asks for
 * them: their stores are written before the claims run, so a run and `lshdp claims` read the same.
 */
function extraValuesOf(config: ExperimentConfig, dir: string): Record<string, unknown[]> {
  return Object.fromEntries(optionalIn(config).map((e) => [e.name, readEvaluationValues(dir, e.name).values]));
}

/**
 * The same from what a run holds in memory when it writes the folder (its config, every record of
 * the grid, its own store folders' records (attack/) and its manifest), without reading the folder back: the very
 * values, so the same claims.
 */
export function claimsInputOf(
  config: ExperimentConfig,
  records: Map<string, CellRecord>,
  manifest: Pick<Manifest, 'users'>,
  dir: string,
  /** the records of the config's own store folders (attack/), by folder */
  own: OwnRecords = new Map(),
  /** the rows of these records' walk by evaluation, when the caller walked them (writeResultFiles) */
  walked?: WalkedRows,
): ClaimsInput {
  const { values, nn } = trialValuesOf(config, records, dir, walked);
  const stores = new Map<string, ReadonlyMap<string, unknown>>([[CELLS_FOLDER, records], ...own]);
  return onTheGrid({
    config: claimsConfigOf(config),
    values,
    nn,
    population: populationOf(manifest),
    ...Object.fromEntries(optionalIn(config).map((e) => [e.name, evaluationValues(e.name, config, stores, walked)])),
  });
}

function populationOf(manifest: Pick<Manifest, 'users'>): Population[] {
  return (manifest.users ?? []).map((u) => ({ dataset: u.dataset, n: u.n, users: u.kept }));
}

export interface WriteClaimsOptions {
  /** family-wise level of each claim (default 0.05) */
  alpha?: number;
  /** the folder's claims input when the caller holds it (claimsInputOf); default: read from the folder */
  input?: ClaimsInput;
}

export interface WrittenClaims {
  results: ClaimResult[];
  json: string;
  markdown: string;
  /** a short summary for the terminal */
  lines: string[];
}

/** Parse `--alpha`: a number strictly between 0 and 1. */
export function parseAlpha(s: string | undefined): number {
  if (s === undefined) return DEFAULT_ALPHA;
  const a = Number(s);
  if (s.trim() === '' || !(a > 0 && a < 1)) throw new UserError(`--alpha: "${s}" is not a number between 0 and 1 (exclusive)`);
  return a;
}

/** One line per verdict the claims left undecided (inconclusive, not-tested), naming each: "lshdp:   inconclusive (2): a, b". */
function undecidedLines(results: readonly ClaimResult[], prefix: string): string[] {
  return [...new Set(results.map((r) => r.verdict))].map((v) => {
    const ids = results.filter((r) => r.verdict === v).map((r) => r.id);
    return `lshdp:   ${prefix}${v} (${ids.length}): ${ids.join(', ')}`;
  });
}

/** Evaluate the claims of results folder `dir` and write claims.json and tables/claims.md. */
export function writeClaims(dir: string, opts: WriteClaimsOptions = {}): WrittenClaims {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const results = evaluateClaims(opts.input ?? readClaimsInput(dir), { alpha });
  const json = claimsJson(results);
  const markdown = claimsMarkdown(results, alpha);
  writeFileAtomicSync(join(dir, 'claims.json'), json);
  writeFileAtomicSync(join(dir, 'tables', 'claims.md'), markdown);
  const datasets = [...new Set(results.map((r) => r.dataset))];
  // a decided claim is listed with its share of cells: "supported" alone reads stronger than one cell of 36
  const decided = results.filter((r) => r.verdict === 'supported' || r.verdict === 'mixed' || r.verdict === 'contradicted');
  const lines = [
    `lshdp: claims (α = ${alpha}): ${datasets.map((ds) => `${ds}: ${verdictCounts(results.filter((r) => r.dataset === ds))}`).join('; ')}`,
    ...decided.map((r) => `lshdp:   ${datasets.length > 1 ? `${r.dataset}: ` : ''}${r.id}: ${verdictWithShare(r)}`),
    // the others the first line counts, by name: "5 inconclusive" says which five
    ...datasets.flatMap((ds) =>
      undecidedLines(
        results.filter((r) => r.dataset === ds && !decided.includes(r)),
        datasets.length > 1 ? `${ds}: ` : '',
      ),
    ),
    'lshdp: wrote claims.json and tables/claims.md (every claim with its cells and why)',
  ];
  return { results, json, markdown, lines };
}
