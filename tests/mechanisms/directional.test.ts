import { describe, expect, it } from 'vitest';
import { getMechanism } from '../../src/mechanisms/registry.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { TrialHashing } from '../../src/lsh/hyperplanes.js';
import type { UserVectors } from '../../src/data/types.js';
import { getBit } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { hashingFor, replicated } from '../helpers/mechanisms.js';
import { euclideanFromAngular } from '../../src/privacy/distance.js';
import { chiSquareCritical, homogeneity, Z } from '../lsh/stats.js';
import { quadrature } from '../helpers/distributions.js';
import { bitsOf } from '../../src/lsh/releases.js';

const PRIVACY = { d: 0.1, delta: 0.01 };

function encode(name: string, sampler: string, vectors: UserVectors, hashing: TrialHashing, c: number, seed: string): CodeSet {
  return bitsOf(getMechanism(name).encode!({ vectors, hashing, rng: makeRng(seed), options: { sampler } }, { epsilon: c, ldpEpsilon: null, fallback: false }));
}

function inputs(n: number, seed: string): number[][] {
  const rng = makeRng(seed);
  const rows = [0, 1].map(() => Array.from({ length: n }, () => (rng() < 0.1 ? rng() * 2 - 1 : 0)));
  rows.forEach((r, i) => {
    r[i] = 1;
  });
  return rows;
}

/** The 16-cell histogram of 4-bit codes of one input's copies. */
function histogram(set: CodeSet, input: number, copies: number): Float64Array {
  const h = new Float64Array(16);
  for (let c = 0; c < copies; c++) h[set.codes[input * copies + c]!]!++;
  return h;
}

describe('vmf and purkayastha: accounting', () => {
  it('vmf: c = ξ / d_euc(d), LDP 2c; purkayastha: c = ξ / (π d), LDP π c', () => {
    const vmf = getMechanism('vmf').epsilon(5, 20, PRIVACY);
    expect(vmf.epsilon).toBeCloseTo(5 / (2 * Math.sin(0.05 * Math.PI)), 12);
    expect(vmf.ldpEpsilon).toBeCloseTo(2 * vmf.epsilon!, 12);
    const p = getMechanism('purkayastha').epsilon(5, 20, PRIVACY);
    expect(p.epsilon).toBeCloseTo(5 / (Math.PI * 0.1), 12);
    expect(p.ldpEpsilon).toBeCloseTo(5 / 0.1, 12);
    // the loss at a pair exactly d apart is ξ: c·d₂ for vmf, c·θ for purkayastha
    expect(vmf.epsilon! * euclideanFromAngular(0.1)).toBeCloseTo(5, 12);
    expect(p.epsilon! * Math.PI * 0.1).toBeCloseTo(5, 12);
  });
});

describe('vmf and purkayastha: the projected sampler against the direct one', () => {
  // Two inputs, 5000 noisy copies each, κ = 4: the whole law of a code is a 16-cell distribution.
  for (const name of ['vmf', 'purkayastha'])
    for (const n of [8, 50, 400])
      it(`${name}, n = ${n}: the same code distribution, per input`, () => {
        const copies = 5000;
        const vectors = replicated(inputs(n, `dir-inputs-${n}`), copies);
        const hashing = hashingFor(vectors, 4, `dir-planes-${n}`);
        // a concentration where the bits are neither fixed nor fair coins
        const c = name === 'vmf' ? Math.max(n, 4) : Math.max(n / 2, 3);
        const codes = ['direct', 'projected'].map((s) => encode(name, s, vectors, hashing, c, `dir-noise-${name}-${s}-${n}`));
        for (let input = 0; input < 2; input++) {
          const [a, b] = codes.map((set) => histogram(set, input, copies));
          const { stat, df } = homogeneity(a!, b!);
          expect(df).toBeGreaterThanOrEqual(3);
          expect(stat).toBeLessThan(chiSquareCritical(df));
        }
      });

  it('falls back to the direct sampler where the row space leaves nothing (n ≤ κ + 1), and still runs', () => {
    const vectors = replicated(inputs(5, 'small-n'), 10);
    const hashing = hashingFor(vectors, 4, 'small-n-planes');
    const set = encode('vmf', 'projected', vectors, hashing, 3, 'small-n-noise');
    expect(set.codes.length).toBe(20);
  });
});

describe('vmf and purkayastha: the limits and both bit directions', () => {
  it('c = 0 (ξ = 0): the code does not depend on the input (uniform directions)', () => {
    const copies = 5000;
    const vectors = replicated(inputs(60, 'zero-inputs'), copies);
    const hashing = hashingFor(vectors, 4, 'zero-planes');
    for (const name of ['vmf', 'purkayastha']) {
      const set = encode(name, 'projected', vectors, hashing, 0, `zero-${name}`);
      const { stat, df } = homogeneity(histogram(set, 0, copies), histogram(set, 1, copies));
      expect(stat, name).toBeLessThan(chiSquareCritical(df));
    }
  });

  it('c → ∞: the clean codes', () => {
    const vectors = replicated(inputs(60, 'inf-inputs'), 50);
    const hashing = hashingFor(vectors, 16, 'inf-planes');
    for (const name of ['vmf', 'purkayastha']) expect(encode(name, 'projected', vectors, hashing, 1e12, `inf-${name}`).codes).toEqual(hashing.codes!.codes);
  });

  it('over many random planes a bit differs from the clean bit with probability E[θ]/π, 0→1 and 1→0 alike', () => {
    // one input, 2000 copies, κ = 64 random planes; the angle θ between x and z has the law the
    // quadrature gives, and a random hyperplane separates x and z with probability θ/π
    const n = 30;
    const kappa = 64;
    const copies = 2000;
    const vectors = replicated([inputs(n, 'theta-inputs')[0]!], copies);
    const hashing = hashingFor(vectors, kappa, 'theta-planes');
    for (const [name, c, logg] of [
      ['vmf', 20, (phi: number) => 20 * (Math.cos(phi) - 1) + (n - 2) * Math.log(Math.sin(phi))],
      ['purkayastha', 20, (t: number) => -20 * t + (n - 2) * Math.log(Math.sin(t))],
    ] as const) {
      const expected = quadrature(logg).expect((t) => t) / Math.PI;
      const set = encode(name, 'projected', vectors, hashing, c, `theta-${name}`);
      // per plane: the share of copies whose bit differs from the clean bit, by direction
      const perPlane: number[] = [];
      let up = 0;
      let ups = 0;
      let down = 0;
      let downs = 0;
      for (let j = 0; j < kappa; j++) {
        const clean = getBit(hashing.codes!, 0, j);
        let diff = 0;
        for (let u = 0; u < copies; u++) diff += getBit(set, u, j) !== clean ? 1 : 0;
        perPlane.push(diff / copies);
        if (clean === 0) {
          up += diff;
          ups += copies;
        } else {
          down += diff;
          downs += copies;
        }
      }
      const mean = perPlane.reduce((a, b) => a + b, 0) / kappa;
      const sd = Math.sqrt(perPlane.reduce((a, b) => a + (b - mean) ** 2, 0) / (kappa - 1));
      expect(Math.abs(mean - expected), `${name}: ${mean} vs ${expected}`).toBeLessThan(Z * (sd / Math.sqrt(kappa)));
      // both directions occur, at rates whose difference the planes' spread explains
      expect(ups > 0 && downs > 0).toBe(true);
      expect(Math.abs(up / ups - down / downs), name).toBeLessThan(Z * sd * Math.sqrt(1 / (ups / copies) + 1 / (downs / copies)));
    }
  });
});

describe('vmf and purkayastha in configs', () => {
  it('run on the angular family only: on jaccard a one-line config error each', async () => {
    const { parseConfig } = await import('../../src/experiment/config.js');
    const text = (m: string) =>
      `name: j\nseed: 1\nmetric: jaccard\ndatasets:\n  - { name: s, format: synthetic, preset: small }\ndims: [20]\nqueries: 5\nk: [1]\nkappa: [4]\ntrials: 1\nprivacy: { d: 0.1, delta: 0.01, xi: [1] }\nmechanisms: [exact, ${m}]\n`;
    for (const m of ['vmf', 'purkayastha']) expect(() => parseConfig(text(m), 'j.yaml')).toThrow(`j.yaml: mechanisms[1]: ${m} adds noise to vectors and cannot run with metric jaccard`);
    expect(() => parseConfig(text('{ name: vmf, sampler: direct }').replace('metric: jaccard\n', ''), 'a.yaml')).not.toThrow();
  });
});

describe('vmf and purkayastha on a run (in-process CLI)', () => {
  it('at ξ = 0 their loss is equivalent to the random level (TOST within ±0.01), and it falls towards LSH as ξ grows (n = 50)', async () => {
    const { lshdpIn } = await import('../helpers/inproc.js');
    const { readUtilityCsv } = await import('../../src/report/read.js');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-dir-'));
    writeFileSync(
      join(dir, 'c.yaml'),
      'name: d\nseed: 4\ndatasets:\n  - { name: s, format: synthetic, preset: small }\ndims: [50]\nqueries: 300\nk: [10]\nkappa: [20]\ntrials: 10\nprivacy: { d: 0.1, delta: 0.01, xi: [0, 20, 200, 5000] }\nmechanisms: [exact, lsh, lshrr, vmf, purkayastha]\n',
    );
    const r = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-report', '--no-cache', '-q', '--threads', '1'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const rows = readUtilityCsv(join(dir, 'out', 'utility.csv'));
    const at = (m: string, xi: number | null) => rows.find((x) => x.mechanism === m && x.xi === xi)!;
    const random = at('lshrr', 0);
    const lsh = at('lsh', null);
    for (const m of ['vmf', 'purkayastha']) {
      const zero = at(m, 0);
      // TOST at 5%: the 90% interval of the difference inside ±0.01
      const se = Math.hypot(zero.utility_loss_se!, random.utility_loss_se!);
      const diff = zero.utility_loss_mean - random.utility_loss_mean;
      expect(Math.abs(diff) + 1.645 * se, `${m}: ${diff} ± ${se}`).toBeLessThan(0.01);
      const losses = [0, 20, 200, 5000].map((xi) => at(m, xi).utility_loss_mean);
      for (let i = 1; i < losses.length; i++) expect(losses[i]!, `${m} at the ${i}th ξ`).toBeLessThan(losses[i - 1]! + 2 * at(m, 0).utility_loss_se!);
      // at a huge budget the code is the clean code's: LSH's loss
      expect(Math.abs(at(m, 5000).utility_loss_mean - lsh.utility_loss_mean), m).toBeLessThan(0.01);
      expect(zero.concentration).toBe(0);
      expect(zero.concentration_metric).toBe(m === 'vmf' ? 'euclidean' : 'angle');
    }
    // budgets.csv: LSHRR's rows read as before; the directional rows carry the concentration and
    // LDP equivalent utility.csv's rows of the same (mechanism, κ, ξ) used
    const { readBudgetsCsv, readDirectionalBudgetsCsv } = await import('../../src/report/read.js');
    const budgets = join(dir, 'out', 'budgets.csv');
    expect(readBudgetsCsv(budgets).map((b) => b.accountant)).toEqual(['paper', 'paper', 'paper', 'paper']);
    const directional = readDirectionalBudgetsCsv(budgets);
    expect(directional.map((b) => `${b.mechanism}@${b.xi}`)).toEqual(['vmf', 'purkayastha'].flatMap((m) => [0, 20, 200, 5000].map((xi) => `${m}@${xi}`)));
    for (const b of directional) {
      const u = at(b.mechanism, b.xi);
      expect([b.concentration, b.concentration_metric, b.epsilon_ldp, b.kappa, b.delta]).toEqual([u.concentration, u.concentration_metric, u.epsilon_ldp, u.kappa, 0]);
    }
    // the manifest names the versions of the mechanisms' own draws (lsh has none; lshrr 2: src/mechanisms/lshrr/facts.ts)
    const { readFileSync } = await import('node:fs');
    const manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8')) as { mechanism_algorithms?: Record<string, string> };
    const { getMechanism } = await import('../../src/mechanisms/registry.js');
    expect(manifest.mechanism_algorithms).toEqual({ lshrr: getMechanism('lshrr').algorithm, vmf: getMechanism('vmf').algorithm, purkayastha: getMechanism('purkayastha').algorithm });
    // the report's budgets section and tables/budgets.md show them, with what equal ξ means
    const { readResultsFolder } = await import('../../src/report/read.js');
    const { buildHtml } = await import('../../src/report/html.js');
    const { budgetsTable } = await import('../../src/report/budgetTables.js');
    const res = readResultsFolder(join(dir, 'out'));
    const html = buildHtml(res, []);
    expect(html).toContain('<h3>Directional mechanisms</h3>');
    expect(html).toContain('Equal ξ is the paper&#39;s LapLSH sense');
    expect(budgetsTable(res.budgets!, 'md', res.directionalBudgets!)).toContain('| purkayastha: ε_LDP = πc | 0 | 200 | 2000 | 50000 |');
  });
});
