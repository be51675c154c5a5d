/**
 * `lshdp calibrate`: the grid of a config, then round after round ξ values near each crossing of an
 * entry's attack success with the targets (the search: src/decide/calibrate.ts), each round a run
 * of the grid grown by the entries' per-cell ξ lists (a value the search proposes for one (data
 * set, n, κ, entry) is computed in that cell alone: src/pipeline/calibrateXi.ts; every stored
 * result is reused), in this process with one pool of workers. The grid and the rounds compute and
 * store only (no result files, claims or report: the search reads the stores); a last run writes
 * them once, the folder `lshdp run` of its config.yaml writes. The entries' lists enter the run as
 * a `mechanisms=` override, so the folder's config.yaml (the effective config) keeps them, and a
 * later `run` or `status --prune` of that file keeps their results.
 */
import { configToDocument, loadConfig } from '../experiment/config.js';
import { searchStep, CALIBRATE_ROUNDS, type SearchEvidence, type SearchState } from '../decide/calibrate.js';
import { addProposals, atItems, entriesWith, placeKey, type CellXi } from './calibrateXi.js';
import { findMechanism } from '../mechanisms/registry.js';
import { readFolderCells, type Targets } from '../decide/read.js';
import { decideSettings, targetsOf, type TargetFlags } from '../decide/targets.js';
import type { ExperimentConfig, XiAt } from '../experiment/config/schema.js';
import { nearest } from '../util/nearest.js';
import { UserError } from '../util/errors.js';
import { runExperiment, startWorkerPool, type RunOptions, type RunResult } from './run.js';

export interface CalibrateOptions extends RunOptions {
  targets: TargetFlags;
  /** rounds at most (default CALIBRATE_ROUNDS) */
  rounds?: number;
}

/** Where the search of one crossing ended. */
export interface CrossingEnd {
  dataset: string;
  n: number;
  kappa: number;
  label: string;
  /** the target set, as `reid1 ≤ 0.01` (and `auc_adv ≤ 0.01`) */
  target: string;
  state: SearchState;
  /** the bracket [ξ_i, ξ_{i+1}] (all: [ξ_J, ξ_J]; none: null) and ξ* */
  bracket: [number, number] | null;
  xi: number;
  /** the binding target: its name (reid1, auc_adv) and value */
  binding: { name: string; target: number };
  /** ceiling and flat: why no crossing is believed to exist */
  evidence: SearchEvidence | null;
}

export interface CalibrateResult {
  outDir: string;
  /** rounds that added ξ values */
  rounds: number;
  /** results computed over every run (the grid's included) */
  computed: number;
  /** per entry label, the ξ values calibrate added per cell (its `xi: { at: [...] }` items), for entries that gained any */
  added: Map<string, XiAt[]>;
  /** the config's mechanism entries as the folder's config.yaml holds them (with their xi lists) */
  entries: Record<string, unknown>[];
  /** per crossing, where its search ended (after the last round) */
  ends: CrossingEnd[];
}

const NO_TARGET = 'lshdp calibrate: no target (give --reid1 T or --auc-adv T, or a decide: block in the config)';

const targetName = (t: Targets): string => [t.reid1 !== null ? `reid1 ≤ ${t.reid1}` : '', t.aucAdv !== null ? `auc_adv ≤ ${t.aucAdv}` : ''].filter((s) => s !== '').join(' and ');

/**
 * Whether an entry's release tends to clean LSH's code as ξ → ∞, so that clean `lsh`'s attack
 * success in the same cell is the most it can reach: the mechanisms that declare it
 * (`cleanIsLshCode`: LSHRR, LapLSH) and the directional ones (a direction around the vector, then
 * LSH: at infinite concentration the direction is the vector). Not RAPPOR (a Bloom filter), JL (reals)
 * or a plugin that does not declare it.
 */
export function limitIsCleanLsh(base: string): boolean {
  const m = findMechanism(base);
  return m?.cleanIsLshCode === true || (m?.roles ?? []).some((r) => r === 'directional-euclidean' || r === 'directional-angular');
}

/** One pass over the folder's stores, as grid `cfg` holds them: per (target set, cell, entry) the search's step. */
function searchFolder(outDir: string, cfg: ExperimentConfig, sets: readonly Targets[]): { proposals: CellXi; ends: CrossingEnd[] } {
  const proposals: CellXi = new Map();
  const ends: CrossingEnd[] = [];
  for (const t of sets) {
    for (const cell of readFolderCells(outDir, t, cfg).cells) {
      for (const e of cell.entries) {
        // clean LSH's successes bound the entry's only where its noise-free limit is clean LSH's code
        const ceilings = cell.targets.map((_, g) => (cell.lsh && limitIsCleanLsh(e.base) ? cell.lsh.success[g] : null));
        const s = searchStep(e.xis, e.success, cell.targets, ceilings);
        if (s.xi !== null && !e.xis.includes(s.xi)) {
          // for this cell alone (the entry's per-cell list)
          const place = { dataset: cell.dataset, n: cell.n, kappa: cell.kappa };
          const mine = proposals.get(e.label) ?? new Map();
          proposals.set(e.label, mine);
          const at = mine.get(placeKey(place)) ?? { place, xi: [] };
          mine.set(placeKey(place), at);
          at.xi.push(s.xi);
        }
        const c = s.crossing;
        const bracket: [number, number] | null = c.flag === 'none' ? null : c.flag === 'all' ? [c.xi, c.xi] : [e.xis[c.i], e.xis[c.i + 1]];
        ends.push({
          dataset: cell.dataset,
          n: cell.n,
          kappa: cell.kappa,
          label: e.label,
          target: targetName(t),
          state: s.state,
          bracket,
          xi: c.xi,
          binding: { name: cell.targetNames[s.binding], target: cell.targets[s.binding] },
          evidence: s.evidence,
        });
      }
    }
  }
  return { proposals, ends };
}

/**
 * The overrides that let a round compute only what the search reads: the linkage attack at the
 * known shares the targets read (and the inference at their auxiliary shares), not at every share of
 * the grid. An entry of attack/ or infer/ is hashed per share, so the last run, on the whole grid,
 * reuses these and computes the other shares once, for every added ξ together, instead of in every
 * round (a round's cost is mostly each trial cell's partial profiles, drawn per share).
 */
export function searchOnly(cfg: ExperimentConfig, sets: readonly Targets[]): string[] {
  const out: string[] = [];
  // the shares the targets read, and the decide: block's own (which must stay on the grid the round's config is checked against)
  const at = (grid: readonly number[], wanted: (t: Targets) => number | null, block: number | undefined): number[] =>
    [...new Set([...sets.flatMap((t) => (wanted(t) === null ? [] : [nearest(grid, wanted(t)!)!])), ...(block === undefined ? [] : [block])])].sort((a, b) => a - b);
  const known = cfg.attack ? at(cfg.attack.known, (t) => (t.reid1 === null ? null : t.known), cfg.decide?.known) : [];
  if (known.length > 0 && known.length < cfg.attack!.known.length) out.push(`attack.known=${JSON.stringify(known)}`);
  const aux = cfg.infer ? at(cfg.infer.aux, (t) => (t.aucAdv === null ? null : t.aux), cfg.decide?.aux) : [];
  if (aux.length > 0 && aux.length < cfg.infer!.aux.length) out.push(`infer.aux=${JSON.stringify(aux)}`);
  return out;
}

export async function calibrateExperiment(opts: CalibrateOptions): Promise<CalibrateResult> {
  if (opts.shard) throw new UserError('lshdp calibrate: not with --shard (calibrate runs in one process; its folder shards and merges like any other: run its config.yaml with --shard)');
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  const cfg = loadConfig(opts.config, { overrides: opts.overrides, dataDir: opts.dataDir });
  // no target, or one the config cannot answer (resolveDecide's errors), fails now, not after the grid
  const settings = decideSettings(cfg, opts.targets);
  const sets = settings ? targetsOf(settings) : [];
  if (sets.length === 0) throw new UserError(NO_TARGET);
  const labels = cfg.mechanisms.map((m) => m.label);
  const base = (configToDocument(cfg).mechanisms ?? []) as Record<string, unknown>[];
  const rounds = opts.rounds ?? CALIBRATE_ROUNDS;
  const added: CellXi = new Map();
  const datasets = cfg.datasets.map((d) => d.name);
  let entries = base;
  const overridesNow = () => (added.size === 0 ? (opts.overrides ?? []) : [...(opts.overrides ?? []), `mechanisms=${JSON.stringify(entries)}`]);
  // the grid and the rounds: only the shares the search reads (the last run computes the others)
  const narrowed = searchOnly(cfg, sets);
  // one pool of workers for every round (the rounds are short: their start-up would dominate)
  const pool = opts.pool ?? (opts.engine ? null : startWorkerPool(opts));
  // the grid and every round compute and store only (RunOptions.outputs): the search reads the
  // stores as the round's config holds them, and the files, claims and report are written once, at
  // the end; the rounds run quietly (calibrate says what each adds and computes)
  const runOnce = (outputs: boolean, quiet = opts.quiet): Promise<RunResult> =>
    runExperiment({ ...opts, overrides: outputs ? overridesNow() : [...overridesNow(), ...narrowed], outputs, quiet, ...(pool ? { pool } : {}), log: quiet ? () => undefined : (opts.log ?? log) });
  const search = (outDir: string) => searchFolder(outDir, loadConfig(opts.config, { overrides: [...overridesNow(), ...narrowed], dataDir: opts.dataDir }), sets);
  let computed = 0;
  let done = 0;
  try {
    let r = await runOnce(false);
    computed += r.computed;
    let step = search(r.outDir);
    for (; done < rounds && step.proposals.size > 0; done++) {
      const logged = addProposals(added, step.proposals);
      entries = entriesWith(base, labels, added, datasets);
      log(`calibrate round ${done + 1}: ${logged.map((a) => `${a.label} + ξ ${a.xi.join(', ')} (${a.cells} cell${a.cells === 1 ? '' : 's'})`).join('; ')}`);
      r = await runOnce(false, true);
      computed += r.computed;
      log(`calibrate round ${done + 1}: ${r.computed} results computed, ${r.reused} reused`);
      step = search(r.outDir);
    }
    // the last state once more, writing the files, claims and report (every result reused)
    r = await runOnce(true);
    computed += r.computed;
    const items = new Map([...added].map(([label, byCell]) => [label, atItems(byCell, datasets)]));
    return { outDir: r.outDir, rounds: done, computed, added: items, entries, ends: step.ends };
  } finally {
    if (!opts.pool) await pool?.close();
  }
}
