/**
 * matched.csv and tables/matched.md of a run whose config has a `decide:` block (docs/OUTPUTS.md):
 * the matched tables of `lshdp choose` at the block's targets, so that the report, `compare` and
 * the README read one file. A config without the block gets neither (and a stale pair from an
 * earlier config with it is removed, so the folder never shows targets its config no longer has).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decideSettings, targetsOf } from '../decide/targets.js';
import { readResultsConfig } from '../machinery/readFolder.js';
import { writeFileAtomicSync } from '../util/atomic.js';

export const MATCHED_FILES = { csv: 'matched.csv', md: join('tables', 'matched.md') } as const;

/** The ranking's level in the files (`lshdp choose --alpha` changes it on the command line only). */
const ALPHA = 0.05;

/** Writes (or removes) the folder's matched files; returns whether it wrote them. The tables' modules load only for a config with the block. */
export async function writeMatchedFiles(dir: string): Promise<boolean> {
  const settings = decideSettings(readResultsConfig(dir).config);
  if (!settings) {
    for (const f of Object.values(MATCHED_FILES)) if (existsSync(join(dir, f))) rmSync(join(dir, f));
    return false;
  }
  const [{ chooseTables }, { matchedTables }] = await Promise.all([import('../decide/choose.js'), import('./matchedTable.js')]);
  const tables = targetsOf(settings).flatMap((t) => chooseTables(dir, t, ALPHA));
  mkdirSync(join(dir, 'tables'), { recursive: true });
  writeFileAtomicSync(join(dir, MATCHED_FILES.csv), matchedTables(tables, 'csv'));
  writeFileAtomicSync(join(dir, MATCHED_FILES.md), matchedTables(tables, 'md'));
  return true;
}
