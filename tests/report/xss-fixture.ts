import { mkdtempSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

export const EVIL = '<script>alert(1)</script>';

/**
 * A copy of the fixture results folder in a temp dir whose data set `ml-small` is renamed to
 * `<script>alert(1)</script>` everywhere (CSVs, datasets.json, manifest), for the escaping tests.
 */
export function evilResultsFolder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-report-')), 'evil');
  cpSync(join(ROOT, 'tests/fixtures/results/small'), dir, { recursive: true });
  for (const f of ['utility.csv', 'nn_distances.csv']) {
    const p = join(dir, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^ml-small,/gm, `${EVIL},`));
  }
  for (const f of ['datasets.json', 'manifest.json']) {
    const p = join(dir, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/"(ml-small|small)"/g, JSON.stringify(EVIL)));
  }
  return dir;
}
