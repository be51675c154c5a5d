/**
 * `lshdp status`: what a results folder holds for the config that last ran there (grid, results
 * per axis), what else it keeps (results of earlier, larger or different grids), and `--prune`,
 * which removes what no cell of that config uses.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';
import { formatCount } from '../util/format.js';
import { cellResults, entryWithXi, expandCells, resultSpecs, trialResults } from '../experiment/grid.js';
import { exactEvaluations, inRecordEvaluations } from './plan.js';
import type { GridEntry, Manifest } from './manifest.js';
import { readResultsConfig } from './readFolder.js';
import { mechanismInfo } from '../mechanisms/registry.js';
import type { TrialRecord } from '../experiment/records.js';
import { CellStore, STORE_FORMAT } from './store.js';
import { ownEvaluations, ownHashesOf, ownStore, type OwnEvaluation } from './ownStores.js';
import { evaluationsIn, type Evaluation } from '../evaluations/index.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';

/** Entries of an own store folder: present and valid / expected. */
export interface OwnCount {
  valid: number;
  expected: number;
}

export interface FolderStatus {
  dir: string;
  name: string;
  shard: { index: number; count: number } | null;
  /** results of the folder's config: present and valid / expected */
  valid: number;
  expected: number;
  /** results and cell files that no cell of the folder's config uses (kept for regrowth) */
  unused: number;
  unusedFiles: number;
  /** per axis value: valid / expected results */
  axes: { axis: string; value: string; valid: number; expected: number }[];
  /** per evaluation of the config with a store folder of its own (by name: `attack`): its entries present and valid / expected */
  own: Record<string, OwnCount>;
  lines: string[];
}

/**
 * The entries of the folder's config that an own store folder (attack/) holds (valid: the
 * manifest's hash), and the entries and files nothing of the config uses (removed with `prune`).
 */
function ownStatus(dir: string, config: ExperimentConfig, e: OwnEvaluation, grid: Map<string, GridEntry>, prune: boolean): OwnCount & { unused: number; strays: number } {
  const store = ownStore(e, dir);
  const used = new Set<string>();
  let valid = 0;
  let expected = 0;
  let unused = 0;
  for (const c of expandCells(config)) {
    if (c.kind !== 'trial') continue;
    const g = grid.get(c.key);
    const wanted = (g && ownHashesOf(g, e.facts.store)) ?? {};
    used.add(c.key);
    const rec = store.read(c.key);
    expected += Object.keys(wanted).length;
    if (!rec) continue;
    const keep = { ...rec, entries: {} as typeof rec.entries };
    for (const [k, entry] of Object.entries(rec.entries)) {
      if (wanted[k] === entry.hash) {
        keep.entries[k] = entry;
        valid++;
      } else unused++;
    }
    if (prune && Object.keys(keep.entries).length !== Object.keys(rec.entries).length) store.write(keep);
  }
  const strays = store.keys().filter((k) => !used.has(k));
  for (const k of strays) {
    const rec = store.read(k);
    unused += rec ? Object.keys(rec.entries).length : 1;
    if (prune) store.remove(k);
  }
  return { valid, expected, unused, strays: strays.length };
}

/** The own store folders' counts: the config's evaluations with one, and any other listed one whose folder holds records (its strays). */
function ownStatuses(dir: string, config: ExperimentConfig, grid: Map<string, GridEntry>, prune: boolean) {
  const own = new Map(ownEvaluations(config).map((e) => [e, ownStatus(dir, config, e, grid, prune)]));
  for (const e of ownEvaluations()) if (!own.has(e) && ownStore(e, dir).keys().length > 0) own.set(e, ownStatus(dir, config, e, grid, prune));
  return own;
}

/** One line per axis: each value's valid / expected results. */
function axisLines(axisList: readonly { axis: string; value: string; valid: number; expected: number }[]): string[] {
  return ['dataset', 'n', 'kappa', 'mechanism', 'xi', 'trial'].flatMap((axis) => {
    const vals = axisList.filter((a) => a.axis === axis);
    return vals.length > 0 ? [`  ${axis}: ${vals.map((a) => `${a.value} ${formatCount(a.valid)}/${formatCount(a.expected)}`).join(', ')}`] : [];
  });
}

export function folderStatus(dir: string, opts: { prune?: boolean } = {}): FolderStatus {
  const { manifest, config } = readResultsConfig(dir);
  const store = new CellStore(dir);
  const format = store.formatPresent();
  if (format !== null && format !== STORE_FORMAT) throw new UserError(`${dir}: results of an older lshdp (results store format ${format}); rerun its config with --force`);
  const grid = new Map<string, GridEntry>(manifest.grid.map((g) => [g.key, g]));
  // per cell its own results (an entry's per-cell ξ in the cells they name only)
  const resultsOf = cellResults(config, trialResults(config, mechanismInfo), mechanismInfo);
  // the mechanism axis counts per config entry (label), as utility.csv's mechanism column names
  // them: lshrr-exact apart from lshrr; two labels of one result both count it
  const labelledOf = (c: { dataset: string; n: number; kappa: number }) => resultSpecs(config.mechanisms, config.privacy.xi, mechanismInfo, c);
  // what the evaluations of the config keep in the records: every k and everything they ask
  const inRecord = inRecordEvaluations(config).map(({ store: s }) => ({ s, asked: s.ask(config) }));
  const exact = exactEvaluations(config);
  const axes = new Map<string, { axis: string; value: string; valid: number; expected: number }>();
  const bump = (axis: string, value: unknown, ok: boolean) => {
    const key = `${axis}=${String(value)}`;
    const a = axes.get(key) ?? { axis, value: String(value), valid: 0, expected: 0 };
    a.expected++;
    if (ok) a.valid++;
    axes.set(key, a);
  };
  let valid = 0;
  let expected = 0;
  let unused = 0;
  const used = new Set<string>();
  for (const c of expandCells(config)) {
    used.add(c.key);
    const g = grid.get(c.key);
    if (c.kind === 'exact') {
      expected++;
      const rec = store.read(c.key);
      // and the evaluations' own values on it (the recommendation baselines of every (k, N))
      const fields = rec as unknown as Record<string, unknown> | null;
      const ok = !!rec && rec.kind === 'exact' && g?.hash === rec.hash && exact.every(({ exact: x }) => x.holds(fields![x.field], config.k, config));
      if (ok) valid++;
      bump('dataset', c.dataset, ok);
      bump('n', c.n, ok);
      continue;
    }
    const rec = store.readTrial(c.key);
    const wanted = g?.results ?? {};
    const okIds = new Set<string>();
    for (const r of resultsOf(c)) {
      expected++;
      const stored = rec?.results[r.id];
      const fields = stored as unknown as Record<string, unknown> | undefined;
      const ok = !!stored && stored.hash === wanted[r.id] && inRecord.every(({ s, asked }) => s.holds(fields![s.field], config.k, asked));
      if (ok) {
        valid++;
        okIds.add(r.id);
      }
      bump('dataset', c.dataset, ok);
      bump('n', c.n, ok);
      bump('kappa', c.kappa, ok);
      bump('trial', c.trial, ok);
      if (r.xi !== null) bump('xi', r.xi, ok);
    }
    for (const { entry, spec } of labelledOf(c)) bump('mechanism', entry.label, okIds.has(spec.id));
    if (rec) {
      const keep: TrialRecord = { ...rec, results: {} };
      for (const [id, stored] of Object.entries(rec.results)) {
        if (wanted[id] === stored.hash) keep.results[id] = stored;
        else unused++;
      }
      if (opts.prune && Object.keys(keep.results).length !== Object.keys(rec.results).length) writeFileAtomicSync(store.path(c.key), JSON.stringify(keep) + '\n');
    }
  }
  const strays = store.keys().filter((k) => !used.has(k));
  for (const k of strays) {
    const rec = store.readTrial(k);
    unused += rec ? Object.keys(rec.results).length : 1;
    if (opts.prune && existsSync(store.path(k))) unlinkSync(store.path(k));
  }
  const own = ownStatuses(dir, config, grid, opts.prune === true);
  const ownStrays = [...own.values()].reduce((t, o) => t + o.strays, 0);
  unused += [...own.values()].reduce((t, o) => t + o.unused, 0);
  const axisList = [...axes.values()];
  const lines = [...headerLines(dir, manifest, config, { valid, expected }, own), ...axisLines(axisList)];
  if (unused > 0) {
    lines.push(
      opts.prune
        ? `pruned ${formatCount(unused)} results no cell of this config uses${strays.length + ownStrays > 0 ? ` (${strays.length + ownStrays} cell files removed)` : ''}`
        : `also kept: ${formatCount(unused)} results no cell of this config uses (earlier or larger grids, other options); lshdp status ${dir} --prune removes them`,
    );
  }
  return {
    dir,
    name: config.name,
    shard: manifest.shard,
    valid,
    expected,
    unused,
    unusedFiles: strays.length + ownStrays,
    axes: axisList,
    own: Object.fromEntries(ownEvaluations(config).map((e) => [e.facts.name, { valid: own.get(e)!.valid, expected: own.get(e)!.expected }])),
    lines,
  };
}

/** The first lines of `lshdp status`: the folder, its grid, the optional evaluations, what is present. */
function headerLines(dir: string, manifest: Manifest, config: ExperimentConfig, { valid, expected }: OwnCount, own: ReadonlyMap<OwnEvaluation, OwnCount>): string[] {
  const more = (count: OwnCount) => (count.valid < count.expected ? ' (run the config again to compute the rest)' : '');
  const blockLine = (e: Evaluation) => {
    const { settings, note } = e.describe!(config);
    const count = own.get(e as OwnEvaluation);
    const present = count && ownEvaluations(config).includes(e as OwnEvaluation) ? `; ${formatCount(count.valid)} of ${formatCount(count.expected)} entries present and valid${more(count)}` : '';
    return `${e.facts.block}: ${settings}${note ? ` (${note})` : ''}${present}`;
  };
  return [
    `${dir}: config "${config.name}"${manifest.shard ? ` (shard ${manifest.shard.index}/${manifest.shard.count})` : ''}, lshdp ${manifest.lshdp}, results store format ${STORE_FORMAT}`,
    `grid: datasets ${config.datasets.map((d) => d.name).join(', ')}; n [${config.dims.join(', ')}]; kappa [${config.kappa.join(', ')}]; k [${config.k.join(', ')}]; xi [${config.privacy.xi.join(', ')}]; trials ${config.trials}; mechanisms ${config.mechanisms.map(entryWithXi).join(', ')}`,
    // the evaluations the config adds with a block of its own, each with its settings
    ...evaluationsIn(config)
      .filter((e) => e.facts.block !== null && e.describe)
      .map(blockLine),
    `results of this config: ${formatCount(valid)} of ${formatCount(expected)} present and valid${more({ valid, expected })}`,
  ];
}
