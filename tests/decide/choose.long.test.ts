/**
 * The matched tables' statistics at their stated levels (full tier):
 * - the ranking: two entries of one law under different draws (the plugin
 *   tests/fixtures/plugins/rr-from-lshdp.mjs beside `{ name: lshrr, accountant: exact }`: the same
 *   randomized response at the same per-bit ε) are ranked apart in at most α of 100 real runs
 *   (3 binomial standard deviations as the Monte Carlo margin);
 * - the coverage: over 400 simulated families of a known law, ξ*'s 90% interval covers the crossing
 *   of the true means, and one release's bounds cover a new release, in 85–95% of the families.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseTables } from '../../src/decide/choose.js';
import { crossingOf } from '../../src/decide/crossing.js';
import { matchCell, type EntrySeries } from '../../src/decide/matched.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';
import { runQuiet, scratchConfig } from '../helpers/pipeline.js';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const PLUGIN = join(ROOT, 'tests', 'fixtures', 'plugins', 'rr-from-lshdp.mjs');
const ALPHA = 0.05;
const margin = (n: number, p: number) => n * p + 3 * Math.sqrt(n * p * (1 - p));

const configOf = (seed: number) => `name: same-law
seed: ${seed}
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 0
k: [10]
kappa: [12]
trials: 10
privacy: { d: 0.1, delta: 0.01, xi: [0, 1, 2, 3, 4, 6, 8, 12, 16, 20] }
mechanisms: [exact, lsh, {name: lshrr, accountant: exact, label: lshrr-exact}, {module: ${JSON.stringify(PLUGIN)}}]
attack: { known: [0.5] }
`;

describe('lshdp choose at its stated levels', () => {
  it('one law under two entries: ranked apart in at most α of 100 runs', async () => {
    const runs = 100;
    let apart = 0;
    let tested = 0;
    for (let seed = 0; seed < runs; seed++) {
      const { dir, config } = scratchConfig(configOf(seed));
      const out = join(dir, 'out');
      await runQuiet(config, out);
      const [table] = chooseTables(out, { reid1: 0.01, aucAdv: null, known: 0.5, aux: 0.5, k: 10 }, ALPHA);
      rmSync(dir, { recursive: true, force: true });
      const rows = table.rows.filter((r) => r.flag !== 'none');
      if (rows.length !== 2) continue;
      tested++;
      if (rows.some((r) => r.rank_kind === 'worse')) apart++;
    }
    expect(tested).toBeGreaterThanOrEqual(95);
    expect(apart).toBeLessThanOrEqual(margin(tested, ALPHA));
  }, 1_800_000);

  it("ξ*'s 90% interval and one release's bounds cover in 85–95% of 400 simulated families", () => {
    const xis = [0, 1, 2, 4, 8, 16];
    const rise = (xi: number) => 1 - Math.exp(-xi / 6);
    const p = xis.map((xi) => 0.002 + 0.03 * rise(xi));
    const u = xis.map((xi) => 0.2 - 0.08 * rise(xi));
    const T = 0.015;
    const truth = crossingOf(xis, p, T);
    expect(truth.flag).toBe('interior');
    const m = 10;
    const families = 400;
    let xiCovered = 0;
    let normalCovered = 0;
    let maxCovered = 0;
    for (let f = 0; f < families; f++) {
      const z = normalSource(makeRng(`coverage-${f}`));
      // a trial's hash functions move every ξ alike (a shared effect), plus noise per ξ
      const trial = () => {
        const shared = 0.003 * z();
        const sharedLoss = 0.004 * z();
        return { success: p.map((x) => x + shared + 0.001 * z()), loss: u.map((x) => x + sharedLoss + 0.001 * z()) };
      };
      const trials = Array.from({ length: m }, trial);
      const entry: EntrySeries = {
        label: 'e',
        xis,
        success: [xis.map((_, j) => trials.map((t) => t.success[j]))],
        loss: xis.map((_, j) => trials.map((t) => t.loss[j])),
        releasable: true,
      };
      const [r] = matchCell({ trials: m, entries: [entry], targets: [T], uRand: null }, { alpha: ALPHA, seed: `coverage-${f}` }).entries;
      if (r.xiLow <= truth.xi && truth.xi <= r.xiHigh) xiCovered++;
      // one new release at the chosen ξ*: a new trial's success interpolated at the same bracket
      const next = trial().success;
      const c = r.crossing;
      const fresh = c.f > 0 ? next[c.i] + c.f * (next[c.i + 1] - next[c.i]) : next[c.i];
      if (fresh <= r.release[0]!.normal) normalCovered++;
      if (fresh <= r.release[0]!.max) maxCovered++;
    }
    for (const [what, covered] of [
      ['ξ* interval', xiCovered],
      ['normal bound', normalCovered],
      ['max bound', maxCovered],
    ] as const) {
      expect(covered / families, what).toBeGreaterThanOrEqual(0.85);
      expect(covered / families, what).toBeLessThanOrEqual(0.95);
    }
  }, 600_000);
});
