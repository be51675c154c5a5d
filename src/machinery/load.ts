/**
 * The data sets of a run, loaded (or read from the cache) one by one, and the grid values only the
 * data can check. Errors here are the user's input; nothing has been written yet.
 */
import type { DatasetSummary, LoadedDataset } from '../data/types.js';
import { InterruptedError } from '../util/errors.js';
import { configError } from '../experiment/config.js';
import { formatCount } from '../util/format.js';
import type { Progress } from '../util/progress.js';
import type { SignalGuard } from '../util/signals.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { Engine } from './engine.js';
import type { RunSetup } from './setup.js';
import { evaluationsIn } from '../evaluations/index.js';
import { itemSetsOf } from '../data/itemSets.js';
import { TooFewItemsError } from '../data/vectors.js';

export interface LoadedData {
  loaded: Map<string, LoadedDataset>;
  /** in config order */
  summaries: DatasetSummary[];
  loadMs: Record<string, number>;
}

export async function loadDataSets(setup: RunSetup, configFile: string, engine: Engine, progress: Progress, guard: SignalGuard, log: (line: string) => void): Promise<LoadedData> {
  const { cfg, cacheDir, skipBadRows } = setup;
  const loaded = new Map<string, LoadedDataset>();
  const loadMs: Record<string, number> = {};
  for (const spec of cfg.datasets) {
    const t0 = Date.now();
    // with `recommend`, the split (not `top`: the lists do not change the data) and the seed it draws from
    const split = cfg.recommend ? { recommend: { split: cfg.recommend.split, holdout: cfg.recommend.holdout }, seed: cfg.seed } : {};
    const ds = await engine.loadDataset(spec, cfg.dims, { metric: cfg.metric, cacheDir, progress, skipBadRows: skipBadRows || spec.skip_bad_rows === true, ...split }).catch((e: unknown) => {
      // an n the data cannot give: the config's key and the file, not only the data set's name
      if (!(e instanceof TooFewItemsError)) throw e;
      const from = spec.path ? ` in ${spec.path}` : '';
      throw configError(configFile, [`dims: ${e.n} exceeds the number of ${e.counted} of data set "${spec.name}" (${e.count}${from}); choose a smaller n`], setup.overrides);
    });
    progress.stop();
    loadMs[spec.name] = Date.now() - t0;
    if (guard.signal) throw new InterruptedError(guard.signal, `interrupted by ${guard.signal} while loading ${spec.name}; nothing was written`);
    if (ds.summary.rowsSkipped > 0) {
      const lines = (ds.summary.skippedLines ?? []).join(', ');
      const many = ds.summary.rowsSkipped > 1;
      log(`${spec.name}: skipped ${ds.summary.rowsSkipped} malformed row${many ? 's' : ''}${lines ? ` (${many ? 'first at lines' : 'line'} ${lines})` : ''}`);
    }
    // the item sets, where an evaluation of the config reads them (attribute inference)
    if (evaluationsIn(cfg).some((e) => e.readsItems)) {
      const centred = ds.summary.center !== 'none';
      const uncentred =
        centred && !ds.recommend
          ? await engine.loadDataset({ ...spec, center: 'none' }, cfg.dims, { metric: cfg.metric, cacheDir, progress, skipBadRows: skipBadRows || spec.skip_bad_rows === true })
          : undefined;
      progress.stop();
      ds.items = new Map(cfg.dims.map((n) => [n, itemSetsOf(ds.vectors.get(n)!, { centred, recommend: ds.recommend?.get(n), uncentred: uncentred?.vectors.get(n) })]));
    }
    loaded.set(spec.name, ds);
  }
  const summaries = cfg.datasets.map((d) => loaded.get(d.name)!.summary);
  checkGridAgainstData(configFile, cfg, loaded, setup.overrides);
  return { loaded, summaries, loadMs };
}

/** Grid values that only the data can check: k below the number of users, enough users. */
function checkGridAgainstData(file: string, cfg: ExperimentConfig, loaded: Map<string, LoadedDataset>, overrides: readonly string[]): void {
  const problems: string[] = [];
  const kmax = Math.max(...cfg.k);
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const v = loaded.get(ds.name)!.vectors.get(n);
      if (!v) {
        problems.push(`dims: data set "${ds.name}" has no vectors for n=${n}`);
        continue;
      }
      const users = v.rowPtr.length - 1;
      if (kmax >= users) problems.push(`k: ${kmax} must be below the number of users of data set "${ds.name}" at n=${n} (${users})`);
      // with `recommend`, some user must keep a held-out item among the n items: the queries are those users
      const split = loaded.get(ds.name)!.recommend?.get(n);
      if (cfg.recommend && split && !split.heldPtr.some((p, u) => u > 0 && p > split.heldPtr[u - 1]!)) {
        problems.push(`recommend.holdout: ${cfg.recommend.holdout} leaves no user of data set "${ds.name}" at n=${n} a held-out item among the n items (a smaller holdout, or a larger n)`);
      }
    }
  }
  // a --set k=[5000] is named, not the file (configError)
  if (problems.length > 0) throw configError(file, problems, overrides);
}

/**
 * `recommend.top` above the smallest n: a top-N list holds at most the n items less the user's
 * training items, so longer lists are cut. The one warning line that says so, or null.
 */
export function topCutWarning(cfg: ExperimentConfig): string | null {
  if (!cfg.recommend) return null;
  const n = Math.min(...cfg.dims);
  const over = cfg.recommend.top.filter((N) => N > n);
  if (over.length === 0) return null;
  return `lshdp: warning: recommend.top: ${over.join(', ')} ${over.length === 1 ? 'is' : 'are'} more than n = ${n}: a list holds at most the n items less the user's training items, so those lists are cut there`;
}

/**
 * `queries` above the users a data set has is cut to all its users (sampleQueries): the one
 * warning line that says so, or null. Users differ by n (a user with no item among the top n is
 * dropped), so each data set gives its range over n.
 */
export function queriesCutWarning(cfg: ExperimentConfig, loaded: Map<string, LoadedDataset>): string | null {
  if (cfg.queries === 0) return null;
  const cut: string[] = [];
  for (const ds of cfg.datasets) {
    const counts = [...(loaded.get(ds.name)?.vectors.values() ?? [])].map((v) => v.rowPtr.length - 1);
    if (counts.length === 0) continue;
    const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
    if (cfg.queries > lo) cut.push(`${ds.name} has ${lo === hi ? formatCount(lo) : `${formatCount(lo)} to ${formatCount(hi)}`} users${lo === hi ? '' : ' by n'}`);
  }
  if (cut.length === 0) return null;
  return `lshdp: warning: queries: ${formatCount(cfg.queries)} is more than the users available (${cut.join('; ')}): every user is a query where there are fewer`;
}
