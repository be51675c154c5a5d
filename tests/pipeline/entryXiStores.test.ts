/**
 * An entry's per-cell ξ with the evaluations that keep stores of their own (the linkage attack, the
 * inference), on a small real grid of two κ: the per-cell value's attack and inference entries exist
 * in the cell it names only, status finds every expected entry, and the grid grown by it equals the
 * same config run at once, file for file.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesOf, runQuiet, scratchConfig, withoutTimes } from '../helpers/pipeline.js';
import { CALIBRATE_GRID } from '../helpers/calibrate.js';
import { folderStatus } from '../../src/machinery/status.js';

const GRID = CALIBRATE_GRID.replace('kappa: [8]', 'kappa: [8, 12]')
  .replace('trials: 10', 'trials: 2')
  .replace('attack: { known: [0.5], targets: 500 }', 'attack: { known: [0.5, 1], targets: 200 }\ninfer: { aux: [0.5], k: 5, targets: 200 }');
const PER_CELL = GRID.replace('mechanisms: [exact, lsh, lshrr, laplsh]', 'mechanisms: [exact, lsh, { name: lshrr, xi: { at: [{ kappa: 12, xi: [7] }] } }, laplsh]');
const outputs = (dir: string) => withoutTimes(new Map([...filesOf(dir)].filter(([k]) => !/manifest\.json$|\.lshdp-outputs\.json$/.test(k))));

describe('per-cell ξ with the attack and inference stores', () => {
  it('computes its entries in the named cell only; grown equals at once', async () => {
    const { dir, config } = scratchConfig(GRID);
    const out = join(dir, 'out');
    const grid = await runQuiet(config, out);
    const { config: perCell } = scratchConfig(PER_CELL);
    const grown = await runQuiet(perCell, out);
    // 2 trials × 1 cell: the result, its attack at 2 known shares, its inference at 1 aux share
    expect(grown.computed).toBe(2 * (1 + 2 + 1));
    expect(grown.total).toBe(grid.total + 8);
    const rows = (file: string) => readFileSync(join(out, file), 'utf8').trim().split('\n');
    for (const file of ['attack.csv', 'infer.csv', 'utility.csv']) {
      const [head, ...lines] = rows(file);
      const cols = head!.split(',');
      const at7 = lines.filter((l) => l.split(',')[cols.indexOf('mechanism')] === 'lshrr' && l.split(',')[cols.indexOf('xi')] === '7');
      expect(at7.length, file).toBeGreaterThan(0);
      expect(new Set(at7.map((l) => l.split(',')[cols.indexOf('kappa')])), file).toEqual(new Set(['12']));
    }
    const status = folderStatus(out);
    expect(status).toMatchObject({ unused: 0 });
    expect(status.valid).toBe(status.expected);
    const once = join(dir, 'once');
    await runQuiet(perCell, once);
    const a = outputs(out);
    const b = outputs(once);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [file, text] of b) expect(a.get(file), file).toBe(text);
  });
});
