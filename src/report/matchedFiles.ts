/**
 * matched.csv, tables/matched.md and matched_curve.csv of a run whose config has a `decide:` block (docs/OUTPUTS.md):
 * the matched tables of `lshdp choose` at the block's targets, so that the report, `compare` and
 * the README read one file. A config without the block gets neither (and a stale pair from an
 * earlier config with it is removed, so the folder never shows targets its config no longer has).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decideSettings, targetsOf } from '../decide/targets.js';
import { readResultsConfig } from '../machinery/readFolder.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import type { FolderCells, Targets } from '../decide/read.js';

export const MATCHED_FILES = { csv: 'matched.csv', md: join('tables', 'matched.md'), curve: 'matched_curve.csv' } as const;

/** The ranking's level in the files (`lshdp choose --alpha` changes it on the command line only). */
const ALPHA = 0.05;

/** Writes (or removes) the folder's matched files; returns whether it wrote them. The tables' modules load only for a config with the block. */
export async function writeMatchedFiles(dir: string): Promise<boolean> {
  const { config } = readResultsConfig(dir);
  const settings = decideSettings(config);
  if (!settings) {
    for (const f of Object.values(MATCHED_FILES)) if (existsSync(join(dir, f))) rmSync(join(dir, f));
    return false;
  }
  const [{ chooseTables }, { matchedTables }, curve, { readFolderCells }] = await Promise.all([
    import('../decide/choose.js'),
    import('./matchedTable.js'),
    import('./matchedCurve.js'),
    import('../decide/read.js'),
  ]);
  // the folder is read once for the curve, and the tables of the same target kinds take that read
  const at = curve.curveTargets(config, settings);
  const folder = at === null ? null : readFolderCells(dir, at);
  const tables = targetsOf(settings).flatMap((t) => chooseTables(dir, t, ALPHA, folder !== null && at !== null && sameKinds(t, at) ? withTargets(folder, t) : undefined));
  mkdirSync(join(dir, 'tables'), { recursive: true });
  writeFileAtomicSync(join(dir, MATCHED_FILES.csv), matchedTables(tables, 'csv'));
  writeFileAtomicSync(join(dir, MATCHED_FILES.md), matchedTables(tables, 'md'));
  if (folder === null) rmSync(join(dir, MATCHED_FILES.curve), { force: true });
  else writeFileAtomicSync(join(dir, MATCHED_FILES.curve), curve.curveCsv(dir, folder, settings));
  return true;
}

/** Whether two target sets read the same attacks at the same k, known and aux (a folder read for one serves the other). */
const sameKinds = (a: Targets, b: Targets): boolean =>
  (a.reid1 === null) === (b.reid1 === null) && (a.aucAdv === null) === (b.aucAdv === null) && a.k === b.k && a.known === b.known && a.aux === b.aux;

/** A folder's cells with the target values of `t` (readFolderCells puts them in each cell; nothing else it reads depends on them). */
function withTargets(folder: FolderCells, t: Targets): FolderCells {
  const ts = [t.reid1, t.aucAdv].filter((x): x is number => x !== null);
  return { ...folder, cells: folder.cells.map((c) => ({ ...c, targets: ts })) };
}
