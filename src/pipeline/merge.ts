/**
 * `lshdp merge`: the shards of a run combined into one folder (checked and combined by
 * src/machinery/merge.ts), then the same result files, claims and report as an
 * unsharded run.
 */
import { loadRealEngine, type Engine } from '../machinery/engine.js';
import { acquireFolderLock } from '../machinery/lock.js';
import { combineShards, shardSummaries } from '../machinery/merge.js';
import { checkResultsFolder, prepareResultsFolder } from '../machinery/outdir.js';
import { writeResultFiles } from '../machinery/outputs.js';
import { CellStore } from '../machinery/store.js';
import { ownStores } from '../machinery/ownStores.js';
import { writeRunReport } from './report.js';

export interface MergeOptions {
  out: string;
  force?: boolean;
  report?: boolean;
  png?: boolean;
  quiet?: boolean;
  engine?: Pick<Engine, 'mechanism' | 'budgetRows'>;
  log?: (line: string) => void;
}

export async function mergeShards(dirs: string[], opts: MergeOptions): Promise<{ cells: number }> {
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  const { cfg, owner, records, own, manifest } = combineShards(dirs, opts.out);
  checkResultsFolder(opts.out, owner, { force: opts.force });
  const engine = opts.engine ?? (await loadRealEngine());
  const summaries = shardSummaries(dirs[0]);
  const lock = acquireFolderLock(opts.out, `lshdp merge ${dirs.join(' ')}`);
  try {
    prepareResultsFolder(opts.out, owner, { force: opts.force });
    const out = new CellStore(opts.out);
    out.ensure();
    for (const rec of records.values()) out.write(rec);
    // the evaluations' own store folders (attack/), each written where it holds a record
    for (const [folder, store] of ownStores(cfg, opts.out)) {
      const recs = own.get(folder)!;
      if (recs.size === 0) continue;
      store.ensure();
      for (const rec of recs.values()) store.write(rec);
    }
    writeResultFiles(opts.out, cfg, records, summaries, manifest, engine, own);
    await writeRunReport(opts.out, { report: opts.report, png: opts.png, quiet: opts.quiet, log });
    log(`merged ${dirs.length} folders (${records.size} cells) into ${opts.out}`);
    return { cells: records.size };
  } finally {
    lock.release();
  }
}
