/**
 * The frontier's horizontal references on small real runs: on the utility loss, random codes at
 * u_rand of the exact cells' records (readRandomLoss) and clean LSH at utility.csv's mean, per
 * panel; on NDCG (a run with recommend), clean LSH, exact and pop at recommend.csv's NDCG@N and no
 * random line; both rows of panels (with infer) carry them, and a folder without records keeps the
 * others.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runQuiet, scratchConfig } from '../helpers/pipeline.js';
import { figureEntries, readResultsFolder } from '../../src/report/index.js';
import { readRandomLoss } from '../../src/machinery/readFolder.js';
import type { RuleRow } from '../../src/report/frontierRules.js';

const GRID = `name: rules
seed: 4
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8, 12]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 5] }
mechanisms: [exact, lsh, lshrr]
attack: { known: [0.5] }
`;

interface Spec {
  data?: { values: (RuleRow | { kind: string })[] };
  vconcat?: Spec[];
  spec?: { layer: { mark: { type: string }; transform?: { filter: string }[] }[] };
}
/** Every rule row and the rule layers of each row of panels of a frontier spec. */
function rulesOf(spec: Spec): { rows: RuleRow[]; blocks: Spec[] } {
  const blocks = spec.vconcat ?? [spec];
  return { rows: blocks.flatMap((b) => b.data!.values.filter((r): r is RuleRow => r.kind === 'rule')), blocks };
}
const hasRuleLayer = (b: Spec) => b.spec!.layer.some((l) => l.mark.type === 'rule' && l.transform?.[0].filter === "datum.kind === 'rule'");

describe('the frontier’s reference lines', () => {
  it('utility loss: random codes at the records’ u_rand and clean LSH at its mean, per panel, in both rows', async () => {
    const { dir, config } = scratchConfig(`${GRID}infer: { aux: [0.5], targets: 40 }\n`, 'rules.yaml');
    const out = join(dir, 'out');
    await runQuiet(config, out);
    const res = readResultsFolder(out);
    const fig = figureEntries(res).find((f) => f.id === 'frontier-a')!;
    const { rows, blocks } = rulesOf(fig.spec as Spec);
    expect(blocks).toHaveLength(2);
    for (const b of blocks) expect(hasRuleLayer(b)).toBe(true);
    const uRand = readRandomLoss(out).get('a', 30, 5)!;
    expect(uRand).toBeGreaterThan(0);
    for (const kappa of [8, 12]) {
      const mine = rows.filter((r) => r.kappa === kappa);
      // one set per row of panels
      expect(mine.filter((r) => r.rule === 'random').map((r) => r.y)).toEqual([uRand, uRand]);
      const lsh = res.utility!.find((r) => r.mechanism === 'lsh' && r.kappa === kappa && r.k === 5)!.utility_loss_mean;
      expect(mine.filter((r) => r.rule === 'clean LSH').map((r) => r.y)).toEqual([lsh, lsh]);
      expect(lsh).toBeLessThan(uRand);
    }
    expect(new Set(rows.map((r) => r.rule))).toEqual(new Set(['random', 'clean LSH']));
    expect(fig.caption).toMatch(/random codes \(u_rand/);
    // without the records there is no u_rand: the clean-LSH line stays
    rmSync(join(out, 'cells'), { recursive: true });
    const bare = figureEntries(readResultsFolder(out)).find((f) => f.id === 'frontier-a')!;
    expect(new Set(rulesOf(bare.spec as Spec).rows.map((r) => r.rule))).toEqual(new Set(['clean LSH']));
  }, 120_000);

  it('NDCG: clean LSH, exact and pop at recommend.csv’s values, no random line', async () => {
    const { dir, config } = scratchConfig(`${GRID}recommend: { split: random, holdout: 1, top: [5] }\n`, 'rules.yaml');
    const out = join(dir, 'out');
    await runQuiet(config, out);
    const res = readResultsFolder(out);
    const fig = figureEntries(res).find((f) => f.id === 'frontier-a')!;
    const { rows, blocks } = rulesOf(fig.spec as Spec);
    expect(blocks).toHaveLength(1);
    expect(hasRuleLayer(blocks[0])).toBe(true);
    const rec = res.recommend!;
    const pop = rec.find((r) => r.base === 'pop' && r.top === 5)!.ndcg_mean;
    const exact = rec.find((r) => r.base === 'exact' && r.k === 5 && r.top === 5)!.ndcg_mean;
    for (const kappa of [8, 12]) {
      const mine = rows.filter((r) => r.kappa === kappa);
      const lsh = rec.find((r) => r.base === 'lsh' && r.kappa === kappa && r.k === 5 && r.top === 5)!.ndcg_mean;
      expect(mine.map((r) => [r.rule, r.y])).toEqual([
        ['clean LSH', lsh],
        ['exact', exact],
        ['pop', pop],
      ]);
    }
  }, 120_000);
});
