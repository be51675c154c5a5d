/**
 * The private MinHash mechanisms in a run on Jaccard data (synthetic item sets): every evaluation
 * (utility, recommendations, the linkage attack, attribute inference) has rows of each entry under
 * its label, their ε per position in the epsilon_bit column, the claims that compare them with
 * LSHRR are listed, and a large budget beats ξ = 0 in utility and in the attack.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runQuiet, scratchConfig, rowsOf } from '../helpers/pipeline.js';
import { readUtilityOf } from '../../src/report/read.js';
import { utilityTable } from '../../src/report/tables.js';

const GRID = `name: mh
seed: 4
metric: jaccard
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [12]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 4, 1000] }
mechanisms:
  - exact
  - lsh
  - lshrr
  - { name: minhash-bucket, buckets: 2, label: mb2 }
  - { name: minhash-bucket, buckets: 16, accountant: exact, label: mb16-exact }
  - minhash-noisy
recommend: { split: random, holdout: 1, top: [5] }
attack: { known: [0.5] }
infer: { aux: [0.5], k: 3 }
`;

const mean = (rows: Record<string, string>[], key: string) => rows.reduce((s, r) => s + Number(r[key]), 0) / rows.length;

describe('private MinHash in a Jaccard run', () => {
  it('goes through every evaluation under its labels, with its ε per position, and is compared with LSHRR by the claims', async () => {
    const { dir, config } = scratchConfig(GRID, 'mh.yaml');
    const out = join(dir, 'out');
    await runQuiet(config, out);
    for (const [label, base] of [
      ['mb2', 'minhash-bucket'],
      ['mb16-exact', 'minhash-bucket'],
      ['minhash-noisy', 'minhash-noisy'],
    ]) {
      const utility = rowsOf(join(out, 'utility.csv'), label);
      // 3 ξ × 2 k
      expect(utility).toHaveLength(6);
      expect(utility.every((r) => r.base === base)).toBe(true);
      expect(utility.every((r) => r.epsilon_bit !== '' && r.epsilon_lap === '' && r.fallback === 'false')).toBe(true);
      expect(utility.filter((r) => r.xi === '0').every((r) => r.epsilon_bit === '0' && r.epsilon_ldp === '0')).toBe(true);
      const attack = rowsOf(join(out, 'attack.csv'), label);
      const infer = rowsOf(join(out, 'infer.csv'), label);
      expect(attack).toHaveLength(3);
      expect(infer).toHaveLength(3);
      expect(rowsOf(join(out, 'recommend.csv'), label).length).toBeGreaterThan(0);
      for (const r of infer) expect(Number(r.auc_mean)).toBeGreaterThan(0);
      // ξ = 1000 is all but noiseless (exact at b = 16: ε′ = ξ/κ's jump point), ξ = 0 the random level
      const atXi = (rows: Record<string, string>[], xi: string) => rows.filter((r) => r.xi === xi && (r.k === undefined || r.k === '5'));
      expect(mean(atXi(utility, '1000'), 'utility_loss_mean'), label).toBeLessThan(mean(atXi(utility, '0'), 'utility_loss_mean') - 0.02);
      expect(mean(atXi(attack, '1000'), 'reid10_mean'), label).toBeGreaterThan(mean(atXi(attack, '0'), 'reid10_mean'));
    }
    // the accountant column says which accountant turned ξ into ε′
    expect(new Set(rowsOf(join(out, 'utility.csv'), 'mb16-exact').map((r) => r.accountant))).toEqual(new Set(['exact']));
    const list = (JSON.parse(readFileSync(join(out, 'claims.json'), 'utf8')) as { claims: { id: string; verdict: string; cells_tested: number }[] }).claims;
    const beats = list.find((c) => c.id === 'lshrr-beats-minhash-bucket')!;
    const matches = list.find((c) => c.id === 'minhash-bucket-2-matches-lshrr')!;
    // b = 16 has the exact accountant and LSHRR the paper's: no pair; b = 2 pairs at every ξ and k
    expect(beats.verdict).toBe('not-tested');
    expect(matches.cells_tested).toBe(3 * 2);
    // the utility table's notes say what ε_bit holds for them, and how their ε_LDP comes from it
    const table = utilityTable(readUtilityOf(out).rows, 'md');
    expect(table).toContain("ε_bit: LSHRR's per-bit randomized-response ε; ε′ per position for minhash-bucket, minhash-noisy.");
    expect(table).toContain('κ·ε′ for private MinHash (ε′ per position)');
  });
});
