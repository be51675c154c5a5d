/**
 * `lshdp status`: what a results folder holds for the config that last ran there (grid, results
 * per axis), what else it keeps (results of earlier, larger or different grids), and `--prune`,
 * which removes what no cell of that config uses.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';
import { formatCount } from '../util/format.js';
import { expandCells, resultSpecs, splitSuffix, trialResults } from '../experiment/grid.js';
import { holdsEvery } from '../evaluations/recommend/lists.js';
import type { GridEntry, Manifest } from './manifest.js';
import { readResultsConfig } from './readFolder.js';
import { mechanismInfo } from '../mechanisms/registry.js';
import type { TrialRecord } from '../experiment/records.js';
import { CellStore, STORE_FORMAT } from './store.js';
import { AttackStore } from './attackStore.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';

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
  /** the linkage attack's entries (config `attack`): present and valid / expected; null without it */
  attack: { valid: number; expected: number } | null;
  lines: string[];
}

/**
 * The attack entries of the folder's config that attack/ holds (valid: the manifest's hash), and
 * the entries and files nothing of the config uses (removed with `prune`).
 */
function attackStatus(dir: string, config: ExperimentConfig, grid: Map<string, GridEntry>, prune: boolean): { valid: number; expected: number; unused: number; strays: number } {
  const store = new AttackStore(dir);
  const used = new Set<string>();
  let valid = 0;
  let expected = 0;
  let unused = 0;
  for (const c of expandCells(config)) {
    if (c.kind !== 'trial') continue;
    const wanted = config.attack ? (grid.get(c.key)?.attack ?? {}) : {};
    if (config.attack) used.add(c.key);
    const rec = store.read(c.key);
    expected += Object.keys(wanted).length;
    if (!rec) continue;
    const keep = { ...rec, entries: {} as typeof rec.entries };
    for (const [k, e] of Object.entries(rec.entries)) {
      if (wanted[k] === e.hash) {
        keep.entries[k] = e;
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

export function folderStatus(dir: string, opts: { prune?: boolean } = {}): FolderStatus {
  const { manifest, config } = readResultsConfig(dir);
  const store = new CellStore(dir);
  const format = store.formatPresent();
  if (format !== null && format !== STORE_FORMAT) throw new UserError(`${dir}: results of an older lshdp (results store format ${format}); rerun its config with --force`);
  const grid = new Map<string, GridEntry>(manifest.grid.map((g) => [g.key, g]));
  const results = trialResults(config, mechanismInfo);
  // the mechanism axis counts per config entry (label), as utility.csv's mechanism column names
  // them: lshrr-exact apart from lshrr; two labels of one result both count it
  const labelled = resultSpecs(config.mechanisms, config.privacy.xi, mechanismInfo);
  const ks = config.k.map(String);
  const top = config.recommend?.top ?? null;
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
      // with `recommend`, the baselines of every (k, N) too
      const baselines = !top || (rec?.kind === 'exact' && holdsEvery(rec.rec?.exact, config.k, top) && top.every((N) => rec.rec?.pop[String(N)] !== undefined));
      const ok = !!rec && rec.kind === 'exact' && g?.hash === rec.hash && baselines;
      if (ok) valid++;
      bump('dataset', c.dataset, ok);
      bump('n', c.n, ok);
      continue;
    }
    const rec = store.readTrial(c.key);
    const wanted = g?.results ?? {};
    const okIds = new Set<string>();
    for (const r of results) {
      expected++;
      const stored = rec?.results[r.id];
      const ok = !!stored && stored.hash === wanted[r.id] && ks.every((k) => stored.values[k] !== undefined) && (!top || holdsEvery(stored.rec, config.k, top));
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
    for (const { entry, spec } of labelled) bump('mechanism', entry.label, okIds.has(spec.id));
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
  const attack = attackStatus(dir, config, grid, opts.prune === true);
  unused += attack.unused;
  const axisList = [...axes.values()];
  const lines = headerLines(dir, manifest, config, { valid, expected }, attack);
  for (const axis of ['dataset', 'n', 'kappa', 'mechanism', 'xi', 'trial']) {
    const vals = axisList.filter((a) => a.axis === axis);
    if (vals.length > 0) lines.push(`  ${axis}: ${vals.map((a) => `${a.value} ${formatCount(a.valid)}/${formatCount(a.expected)}`).join(', ')}`);
  }
  if (unused > 0) {
    lines.push(
      opts.prune
        ? `pruned ${formatCount(unused)} results no cell of this config uses${strays.length + attack.strays > 0 ? ` (${strays.length + attack.strays} cell files removed)` : ''}`
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
    unusedFiles: strays.length + attack.strays,
    axes: axisList,
    attack: config.attack ? { valid: attack.valid, expected: attack.expected } : null,
    lines,
  };
}

/** The first lines of `lshdp status`: the folder, its grid, the optional evaluations, what is present. */
function headerLines(dir: string, manifest: Manifest, config: ExperimentConfig, { valid, expected }: { valid: number; expected: number }, attack: { valid: number; expected: number }): string[] {
  const lines = [
    `${dir}: config "${config.name}"${manifest.shard ? ` (shard ${manifest.shard.index}/${manifest.shard.count})` : ''}, lshdp ${manifest.lshdp}, results store format ${STORE_FORMAT}`,
    `grid: datasets ${config.datasets.map((d) => d.name).join(', ')}; n [${config.dims.join(', ')}]; kappa [${config.kappa.join(', ')}]; k [${config.k.join(', ')}]; xi [${config.privacy.xi.join(', ')}]; trials ${config.trials}; mechanisms ${config.mechanisms.map((m) => m.label).join(', ')}`,
    ...(config.recommend
      ? [
          `recommend: split ${config.recommend.split}, holdout ${config.recommend.holdout}, top [${config.recommend.top.join(', ')}] (cells keyed ${splitSuffix(config.recommend).slice(1)}: vectors and utility.csv on the training interactions; recommend.csv)`,
        ]
      : []),
    `results of this config: ${formatCount(valid)} of ${formatCount(expected)} present and valid${valid < expected ? ' (run the config again to compute the rest)' : ''}`,
  ];
  if (config.attack) {
    lines.push(
      `linkage attack (known [${config.attack.known.join(', ')}], at most ${formatCount(config.attack.targets)} targets): ${formatCount(attack.valid)} of ${formatCount(attack.expected)} entries present and valid${attack.valid < attack.expected ? ' (run the config again to compute the rest)' : ''}`,
    );
  }
  return lines;
}
