import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesOf, runQuiet, scratchConfig } from '../helpers/pipeline.js';
import { smallGrid } from '../helpers/experiment.js';
import { MATCHED_CLAIM_IDS } from '../../src/claims/types.js';

const MATCHED = new Set<string>(MATCHED_CLAIM_IDS);

/** A small real grid with both attacks (synthetic data, in this thread). */
const GRID = `${smallGrid('dec', 5, ['exact', 'lsh', 'lshrr'])([0, 5])}attack: { known: [0.5], targets: 40 }
infer: { aux: [0.5], targets: 40 }
`;

describe('decide: in a run', () => {
  it('enters no hash: adding or changing it recomputes nothing and leaves every record byte-identical; of the claims only the matched ones read it', async () => {
    const { dir, config } = scratchConfig(GRID, 'dec.yaml');
    const out = join(dir, 'out');
    const first = await runQuiet(config, out);
    expect(first.computed).toBeGreaterThan(0);
    const stores = () => new Map([...['cells', 'attack', 'infer'].flatMap((s) => [...filesOf(join(out, s))].map(([f, t]) => [`${s}/${f}`, t] as const))]);
    const before = stores();
    const csv = (f: string) => readFileSync(join(out, f), 'utf8');
    const outputs = ['utility.csv', 'attack.csv', 'infer.csv'].map(csv);
    // claims.json: every claim but the matched ones, which read the block's targets (not applicable without it)
    const claims = (matched: boolean) => (JSON.parse(csv('claims.json')).claims as { id: string; detail: string }[]).filter((c) => MATCHED.has(c.id) === matched);
    const unmatched = claims(false);
    expect(claims(true).length).toBe(MATCHED_CLAIM_IDS.length);
    for (const c of claims(true)) expect(c.detail, c.id).toMatch(/^not applicable: the config has no decide: block/);
    for (const block of ['decide: { reid1: [0.01], auc_adv: [0.01] }', 'decide: { reid1: [0.05, 0.01], known: 0.5, aux: 0.5, k: 1 }']) {
      writeFileSync(config, `${GRID}${block}\n`);
      const r = await runQuiet(config, out);
      expect(r, block).toMatchObject({ computed: 0, cellsComputed: 0 });
      expect(r.reused).toBe(first.total);
      expect(stores()).toEqual(before);
      expect(['utility.csv', 'attack.csv', 'infer.csv'].map(csv)).toEqual(outputs);
      expect(claims(false)).toEqual(unmatched);
      for (const c of claims(true)) expect(c.detail, c.id).not.toMatch(/^not applicable: the config has no decide: block/);
    }
  });
});
