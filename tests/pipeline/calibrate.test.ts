/**
 * `lshdp calibrate` on a small real grid (synthetic data, in this thread): it adds ξ values to the
 * entries whose crossing the grid leaves coarse, ends with every crossing resolved by its stopping
 * rule, writes the values into the folder's config.yaml, leaves the grid's claims their verdicts
 * and bytes (the claims read privacy.xi only, but the matched ones, which read each entry's whole ξ
 * list), and a second calibrate adds and computes nothing.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/experiment/config.js';
import { filesOf, runQuiet, scratchConfig, withoutTimes } from '../helpers/pipeline.js';
import { CALIBRATE_GRID, calibrateQuiet } from '../helpers/calibrate.js';
import { readClaimsInput } from '../../src/claims/write.js';
import { datasetContext } from '../../src/claims/evaluate.js';
import { matchedEntries } from '../../src/claims/matchedCells.js';
import { searchOnly } from '../../src/pipeline/calibrate.js';

/** A folder's files but the ones that record the run rather than its results (manifest: times, config path; the outputs key), compute times zeroed. */
const outputs = (dir: string) => withoutTimes(new Map([...filesOf(dir)].filter(([k]) => !/manifest\.json$|\.lshdp-outputs\.json$/.test(k))));

describe('lshdp calibrate', () => {
  it('adds ξ near each crossing until its rule stops it; config.yaml keeps them; the claims keep the grid’s verdicts and bytes', async () => {
    const { dir, config } = scratchConfig(CALIBRATE_GRID);
    const out = join(dir, 'out');
    await runQuiet(config, out);
    const read = (f: string) => readFileSync(join(out, f), 'utf8');
    const claims = read('claims.json');
    const r = await calibrateQuiet(config, out, 0.01);
    expect(r.rounds).toBeGreaterThan(0);
    expect(r.added.size).toBeGreaterThan(0);
    // every crossing is resolved, none left mid-search
    expect(r.ends.length).toBe(2);
    for (const e of r.ends) expect(['bracketed', 'near', 'flat', 'ceiling', 'none'], `${e.label}: ${e.state}`).toContain(e.state);
    // added values: 3 significant digits, per cell (the grid's one cell here)
    for (const items of r.added.values()) for (const item of items) for (const x of item.xi) expect(Number(x.toPrecision(3))).toBe(x);
    for (const items of r.added.values()) expect(items.map(({ xi: _, ...place }) => place)).toEqual([{ dataset: 'a', n: 30, kappa: 8 }]);
    // the folder's effective config holds them, per cell: running it is the calibrated grid
    const effective = loadConfig(join(out, 'config.yaml'));
    for (const [label, items] of r.added) {
      const m = effective.mechanisms.find((x) => x.label === label)!;
      expect(m.xiAt, label).toEqual(items);
      expect(m.xi, label).toBeUndefined();
    }
    expect(read('claims.json')).toBe(claims);
    // the matched claims, and they alone, read the entries' own ξ lists: their series hold the added values
    const ctx = datasetContext(readClaimsInput(out), 'a', 0.05);
    const { entries } = matchedEntries(ctx, 'reid', { reid1: [0.01], known: 0.5, auc_adv: [], aux: null, k: 10 });
    for (const [label, items] of r.added) {
      const own = items.flatMap((i) => i.xi).filter((x) => ![0, 1, 2, 5, 10, 20].includes(x));
      expect(own.length, label).toBeGreaterThan(0);
      expect(entries.find((e) => e.label === label)!.series.xis, label).toEqual(expect.arrayContaining(own));
      expect(
        ctx.series.some((x) => x.mechanism === label && own.includes(x.xi!)),
        label,
      ).toBe(false);
    }
    // calibrated already: nothing to add, nothing computed
    const again = await calibrateQuiet(join(out, 'config.yaml'), out, 0.01);
    expect(again).toMatchObject({ rounds: 0, computed: 0 });
    expect(again.added.size).toBe(0);
  });

  it('computes the grid and its rounds at the shares the search reads only, and ends in the folder `run` of its config.yaml writes', async () => {
    // three known shares, the target reads 0.5: the rounds attack at 0.5 only, the last run at all three
    const { dir, config } = scratchConfig(CALIBRATE_GRID.replace('known: [0.5]', 'known: [0.25, 0.5, 1]'));
    const out = join(dir, 'cal');
    const r = await calibrateQuiet(config, out, 0.01);
    expect(r.added.size).toBeGreaterThan(0);
    const fresh = join(dir, 'fresh');
    await runQuiet(join(out, 'config.yaml'), fresh);
    const cal = outputs(out);
    const run = outputs(fresh);
    expect([...cal.keys()].sort()).toEqual([...run.keys()].sort());
    for (const [file, text] of run) expect(cal.get(file), file).toBe(text);
  });

  it('narrows the attack and the inference to the shares the targets read, and nothing else', () => {
    const cfg = loadConfig(scratchConfig(CALIBRATE_GRID.replace('known: [0.5]', 'known: [0.25, 0.5, 1]')).config);
    const t = { reid1: 0.01, aucAdv: null, known: 0.4, aux: 0.5, k: 10 };
    // the grid's nearest share to 0.4 is 0.5 (as the tables read it)
    expect(searchOnly(cfg, [t])).toEqual(['attack.known=[0.5]']);
    expect(searchOnly(cfg, [t, { ...t, known: 1 }])).toEqual(['attack.known=[0.5,1]']);
    // every share read already: nothing to narrow; no attack target: the attack is not narrowed
    expect(searchOnly(loadConfig(scratchConfig(CALIBRATE_GRID).config), [t])).toEqual([]);
    expect(searchOnly(cfg, [{ ...t, reid1: null, aucAdv: 0.01 }])).toEqual([]);
    // a decide: block's own share stays in (the round's config must still pass its checks), even when a flag reads another
    const blockFile = scratchConfig(`${CALIBRATE_GRID.replace('known: [0.5]', 'known: [0.25, 0.5, 1]')}decide: { reid1: [0.01], known: 0.25 }\n`).config;
    const withBlock = loadConfig(blockFile);
    expect(searchOnly(withBlock, [t])).toEqual(['attack.known=[0.25,0.5]']);
    expect(() => loadConfig(blockFile, { overrides: searchOnly(withBlock, [t]) })).not.toThrow();
  });
});
