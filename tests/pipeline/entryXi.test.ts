import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { mergeShards } from '../../src/pipeline/merge.js';
import { folderStatus } from '../../src/machinery/status.js';
import { fakeEngine, FAKE_CONFIG } from '../helpers/fakeEngine.js';

/** FAKE_CONFIG with lshrr's entry given its own ξ values 7 and 0.5 (privacy.xi is [0, 1, 2]). */
const EXTRA = FAKE_CONFIG.replace('mechanisms: [exact, lsh, lshrr, laplsh]', 'mechanisms: [exact, lsh, { name: lshrr, xi: [7, 0.5, 1] }, laplsh]');

const run = (config: string, out: string, extra: Partial<Parameters<typeof runExperiment>[0]> = {}) =>
  runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine: fakeEngine(), log: () => undefined, ...extra });

function scratch(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-entryxi-'));
  const config = join(dir, 'fake.yaml');
  writeFileSync(config, text);
  return { dir, config };
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');
const status = (dir: string) => folderStatus(dir);
/** utility.csv's rows as (mechanism, xi) pairs, distinct, in order. */
const pairs = (csv: string) => {
  const [head, ...lines] = csv.trim().split('\n');
  const cols = head!.split(',');
  const m = cols.indexOf('mechanism');
  const x = cols.indexOf('xi');
  return [...new Set(lines.map((l) => `${l.split(',')[m]}@${l.split(',')[x]}`))];
};

describe('per-entry ξ (a mechanism entry with xi:)', () => {
  it('adds its values to that entry alone; grows the grid by those results only; the claims read privacy.xi only', async () => {
    const { dir, config } = scratch(FAKE_CONFIG);
    const out = join(dir, 'out');
    const grid = await run(config, out);
    const claims = read(out, 'claims.json');
    writeFileSync(config, EXTRA);
    const grown = await run(config, out);
    // 24 trial cells × lshrr at 0.5 and 7 (1 is privacy.xi's: the same result)
    expect(grown).toMatchObject({ computed: 48, total: grid.total + 48 });
    const rows = pairs(read(out, 'utility.csv'));
    expect(rows.filter((p) => p.startsWith('lshrr@'))).toEqual(['lshrr@0', 'lshrr@0.5', 'lshrr@1', 'lshrr@2', 'lshrr@7']);
    expect(rows.filter((p) => p.startsWith('laplsh@'))).toEqual(['laplsh@0', 'laplsh@1', 'laplsh@2']);
    // the claims: the very verdicts and bytes of the grid alone
    expect(read(out, 'claims.json')).toBe(claims);
    // the effective config keeps the entry's ξ (a rerun from it is the same grid), and status counts them
    expect(read(out, 'config.yaml')).toMatch(/xi:\s*\n?\s*-?\s*\[?0\.5/);
    const status = folderStatus(out);
    expect(status).toMatchObject({ valid: grid.total + 48, expected: grid.total + 48, unused: 0 });
    expect(status.lines.join('\n')).toContain('mechanisms exact, lsh, lshrr (+ξ 0.5, 1, 7), laplsh');
    // the same grid run at once, and sharded then merged: the same bytes
    const once = join(dir, 'once');
    await run(config, once);
    for (const f of ['utility.csv', 'claims.json']) expect(read(once, f), f).toBe(read(out, f));
    const shards = [1, 2].map((i) => join(dir, `s${i}`));
    for (let i = 0; i < 2; i++) await run(config, shards[i]!, { shard: { index: i + 1, count: 2 } });
    await mergeShards(shards, { out: join(dir, 'merged'), report: false, engine: fakeEngine(), quiet: true });
    for (const f of ['utility.csv', 'claims.json']) expect(read(join(dir, 'merged'), f), f).toBe(read(out, f));
    // removing the entry's ξ: prune drops exactly its results
    writeFileSync(config, FAKE_CONFIG);
    await run(config, out);
    expect(folderStatus(out, { prune: true }).unused).toBe(48);
    expect(read(out, 'claims.json')).toBe(claims);
  });

  it('per cell (xi: { at: [...] }): values computed in the cells they name only; the same bytes at once, grown, and sharded then merged', async () => {
    // lshrr gains 0.5 in (a, n 5, κ 4) and 7 at every n 8 (both data sets, both κ); laplsh 3 at κ 6
    const PER_CELL = FAKE_CONFIG.replace(
      'mechanisms: [exact, lsh, lshrr, laplsh]',
      'mechanisms: [exact, lsh, { name: lshrr, xi: { at: [{ dataset: a, n: 5, kappa: 4, xi: [0.5] }, { n: 8, xi: [7] }] } }, { name: laplsh, xi: { at: [{ kappa: 6, xi: [3] }] } }]',
    );
    const { dir, config } = scratch(FAKE_CONFIG);
    const out = join(dir, 'out');
    const grid = await run(config, out);
    writeFileSync(config, PER_CELL);
    const grown = await run(config, out);
    // 3 trials × (lshrr 0.5: 1 cell; lshrr 7: 4 cells; laplsh 3: 4 cells)
    expect(grown).toMatchObject({ computed: 27, total: grid.total + 27 });
    const csv = read(out, 'utility.csv');
    const [head, ...lines] = csv.trim().split('\n');
    const cols = head!.split(',');
    const col = (name: string) => cols.indexOf(name);
    const where = (mechanism: string, xi: string) =>
      [...new Set(lines.filter((l) => l.split(',')[col('mechanism')] === mechanism && l.split(',')[col('xi')] === xi).map((l) => l.split(',').slice(0, 3).join(' ')))].sort();
    const cellsOf = (rows: string[]) => rows.map((r) => r.split(' ').slice(0, 3).join(' '));
    expect(cellsOf(where('lshrr', '0.5'))).toEqual(['a 5 4']);
    expect(where('lshrr', '7').length).toBe(4);
    expect(where('laplsh', '3').length).toBe(4);
    expect(where('lshrr', '1').length).toBe(8);
    expect(status(out)).toMatchObject({ valid: grid.total + 27, expected: grid.total + 27, unused: 0 });
    // the effective config keeps the per-cell lists: running it at once, or sharded and merged, gives the same bytes
    expect(read(out, 'config.yaml')).toMatch(/at:/);
    const once = join(dir, 'once');
    await run(join(out, 'config.yaml'), once);
    for (const f of ['utility.csv', 'claims.json']) expect(read(once, f), f).toBe(read(out, f));
    const shards = [1, 2].map((i) => join(dir, `p${i}`));
    for (let i = 0; i < 2; i++) await run(config, shards[i]!, { shard: { index: i + 1, count: 2 } });
    await mergeShards(shards, { out: join(dir, 'merged'), report: false, engine: fakeEngine(), quiet: true });
    for (const f of ['utility.csv', 'claims.json']) expect(read(join(dir, 'merged'), f), f).toBe(read(out, f));
    // back to the grid: prune drops exactly the per-cell results
    writeFileSync(config, FAKE_CONFIG);
    await run(config, out);
    expect(folderStatus(out, { prune: true }).unused).toBe(27);
  });
});
