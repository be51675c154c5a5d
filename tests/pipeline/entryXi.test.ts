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
});
