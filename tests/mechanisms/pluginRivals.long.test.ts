/**
 * The long tier (npm run test:full), issue 52's proof: LapLSH, jl-gaussian (its default guarantee)
 * and minhash-bucket rewritten as version-2 plugins importing only from 'lshdp'
 * (tests/fixtures/plugins/*-v2.mjs) are the built-ins from outside.
 *
 * - Utility: a plugin draws other noise than its built-in (the noise seed includes the mechanism's
 *   name), so the check is equivalence, not bytes: per cell (κ, ξ, k, metric) of a small angular and
 *   a small Jaccard config, the paired difference (same trial, same hashing) of the loss and of the
 *   recall over 40 trials lies within z_{1−0.01/(2c)} standard errors for the c cells (two-sided,
 *   family-wise 1%, Bonferroni).
 * - The audit: on the shipped audit grid (LapLSH) or 36 (κ, ξ) rows (the others), each plugin gets
 *   its built-in's verdict on every row and `detectable_inflation` within one step of the audit's
 *   factor grid (withinOneStep) of the built-in's, or of the span between it and the built-in's
 *   under another label (its twin: the same release, other pilot noise; where the pilots measure the
 *   release coarsely, as minhash-bucket's keep rate near 1/b at ξ = 1, the figure moves with the
 *   pilot noise); a hidden ×1.5 behind the same declaration (option `hidden`) is flagged (violated
 *   or law-mismatch) in at least 80% of the rows whose honest figure is <= 1.5 (one-sided binomial
 *   at 1%, needing >= 30 such rows: jl-gaussian has 36; LapLSH 0 and minhash-bucket 5 at M = 5000,
 *   listed as such), its honest twin in at most α = 5% of rows.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import type { AuditFile } from '../helpers/audit.js';
import { readTrialValues } from '../../src/machinery/readFolder.js';
import { erfcinv } from '../../src/vendor/stdlib.js';
import { binomialUpperP } from '../../src/stats/binomial.js';
import { SIMULATION_FACTORS } from '../../src/audit/inflation.js';

const PLUGINS = join(ROOT, 'tests/fixtures/plugins');
const mod = (file: string, extra = '') => `{ module: ${JSON.stringify(join(PLUGINS, file))}${extra} }`;

/** One step of the audit's factor search: `g` apart from `f` by at most the ratio of the step of
 *  its factor grid (SIMULATION_FACTORS, the black-box search's own grid) that holds `f` (×1.2 from
 *  1.25 to 1.5, ×2 from 5 to 10). The bisected searches find a factor from pilots of the release,
 *  whose noise differs between a plugin and its built-in, so their figures differ by the pilots'
 *  error, not by a bisection step. */
function withinOneStep(f: number, g: number): boolean {
  const grid = [1, ...SIMULATION_FACTORS];
  const i = Math.max(0, grid.filter((x) => x <= f).length - 1);
  const step = i + 1 < grid.length ? grid[i + 1]! / grid[i]! : grid[i]! / grid[i - 1]!;
  return Math.max(f, g) / Math.min(f, g) <= step * (1 + 1e-9);
}

/** `g` within one grid step of the span of two figures of the same release (the built-in's and its
 *  twin's): below the smaller's lower neighbour, above the larger's upper one, it is apart. */
function withinSpan(f: number, t: number, g: number): boolean {
  const lo = Math.min(f, t);
  const hi = Math.max(f, t);
  return withinOneStep(lo, g) || withinOneStep(hi, g) || (g >= lo && g <= hi);
}

function utilityConfig(dir: string, name: string, metric: string, mechanisms: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      'seed: 5',
      `metric: ${metric}`,
      'datasets:',
      '  - { name: synth, format: synthetic, preset: small, users: 200, items: 300, ratings: 6000 }',
      'dims: [50]',
      'queries: 60',
      'k: [5]',
      'kappa: [16]',
      'trials: 40',
      'privacy: { d: 0.2, delta: 0.01, xi: [5, 20] }',
      `mechanisms: ${mechanisms}`,
      '',
    ].join('\n'),
  );
  return file;
}

/** Paired differences (plugin − built-in) per cell and metric: [cell, mean, se]. */
function pairedDifferences(out: string, builtIn: string, plugin: string): [string, number, number][] {
  const { values } = readTrialValues(out);
  const cells = new Map<string, { a: number[]; b: number[] }>();
  for (const v of values) {
    if (v.mechanism !== builtIn && v.mechanism !== plugin) continue;
    for (const metric of ['loss', 'recall'] as const) {
      const key = `${builtIn} κ=${v.kappa} ξ=${v.xi} k=${v.k} ${metric}`;
      const c = cells.get(key) ?? { a: [], b: [] };
      (v.mechanism === builtIn ? c.a : c.b)[v.trial] = v[metric];
      cells.set(key, c);
    }
  }
  return [...cells].map(([key, { a, b }]) => {
    expect(a.length, key).toBe(40);
    expect(b.length, key).toBe(40);
    const d = a.map((x, t) => b[t]! - x);
    const mean = d.reduce((s, x) => s + x, 0) / d.length;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1));
    return [key, mean, sd / Math.sqrt(d.length)];
  });
}

describe('the rivals rewritten as version-2 plugins (long tier)', () => {
  it('utility: each plugin is equivalent to its built-in per cell (paired, 40 trials, family-wise 1%)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-plugin-rivals-'));
    const angular = utilityConfig(dir, 'angular', 'angular', `[laplsh, ${mod('laplsh-v2.mjs')}, jl-gaussian, ${mod('jl-gaussian-v2.mjs')}]`);
    const jaccard = utilityConfig(dir, 'jaccard', 'jaccard', `[minhash-bucket, ${mod('minhash-bucket-v2.mjs')}]`);
    const diffs: [string, number, number][] = [];
    for (const [cfg, pairs] of [
      [
        angular,
        [
          ['laplsh', 'laplsh-v2'],
          ['jl-gaussian', 'jl-gaussian-v2'],
        ],
      ],
      [jaccard, [['minhash-bucket', 'minhash-bucket-v2']]],
    ] as const) {
      const out = join(dir, `out-${cfg.endsWith('angular.yaml') ? 'a' : 'j'}`);
      const r = await lshdpIn(['run', cfg, '--out', out, '--threads', '2', '--no-report', '--cache-dir', join(dir, 'cache')]);
      expect(r.status, r.stderr).toBe(0);
      for (const [a, b] of pairs) diffs.push(...pairedDifferences(out, a, b));
    }
    // 3 pairs × 2 ξ × 2 metrics
    expect(diffs).toHaveLength(12);
    const z = Math.SQRT2 * erfcinv(0.01 / diffs.length);
    for (const [key, mean, se] of diffs) expect(Math.abs(mean), `${key}: mean difference ${mean} (SE ${se})`).toBeLessThanOrEqual(z * se + 1e-12);
    // the comparison can fail: the same check between two different mechanisms rejects
    const out = join(dir, 'out-a');
    const apart = pairedDifferences(out, 'laplsh', 'jl-gaussian-v2').filter(([, mean, se]) => Math.abs(mean) > z * se);
    expect(apart.length).toBeGreaterThan(0);
  }, 900_000);

  it('the audit gives them their built-ins’ verdicts and power; a hidden ×1.5 is flagged where the honest figure is <= 1.5', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-plugin-rivals-audit-'));
    const grid = (name: string, metric: string, datasets: string[], mechanisms: string, kappa = '[10, 20, 50]', xi = '[1, 2, 5, 10, 20]') => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(
        file,
        [
          `name: ${name}`,
          'seed: 11',
          `metric: ${metric}`,
          'datasets:',
          ...datasets,
          'dims: [50]',
          'queries: 0',
          'k: [1]',
          `kappa: ${kappa}`,
          'trials: 1',
          `privacy: { d: 0.1, delta: 0.01, xi: ${xi} }`,
          `mechanisms: ${mechanisms}`,
          '',
        ].join('\n'),
      );
      return file;
    };
    const two = ['  - { name: synth, format: synthetic, preset: small }', '  - { name: checkins, format: synthetic, preset: foursquare-small }'];
    const hidden = ', hidden: 1.5, label: hidden';
    // the audit has a row per (κ, ξ): 36 of them for the rivals whose rows can see ×1.5
    const wide = ['[10, 20, 30, 50]', '[1, 2, 3, 5, 8, 10, 15, 20, 30]'] as const;
    const runs = [
      ['laplsh', grid('lap', 'angular', two, `[laplsh, { name: laplsh, label: twin }, ${mod('laplsh-v2.mjs')}, ${mod('laplsh-v2.mjs', hidden)}]`)],
      ['jl-gaussian', grid('jl', 'angular', two, `[jl-gaussian, { name: jl-gaussian, label: twin }, ${mod('jl-gaussian-v2.mjs')}, ${mod('jl-gaussian-v2.mjs', hidden)}]`, ...wide)],
      [
        'minhash-bucket',
        grid('mh', 'jaccard', two.slice(0, 1), `[minhash-bucket, { name: minhash-bucket, label: twin }, ${mod('minhash-bucket-v2.mjs')}, ${mod('minhash-bucket-v2.mjs', hidden)}]`, ...wide),
      ],
    ] as const;
    const thin: string[] = [];
    for (const [builtIn, cfg] of runs) {
      const r = await lshdpIn(['audit', cfg, '--out', join(dir, builtIn)]);
      expect([0, 3, 4], r.stderr).toContain(r.status);
      const rows = (JSON.parse(readFileSync(join(dir, builtIn, 'audit.json'), 'utf8')) as AuditFile).results;
      const by = (label: string) => rows.filter((x) => x.mechanism === label);
      const [base, twin, plugin, hid] = [by(builtIn), by('twin'), by(`${builtIn}-v2`), by('hidden')];
      expect(plugin).toHaveLength(base.length);
      let honestFlags = 0;
      const eligible: boolean[] = [];
      base.forEach((b, i) => {
        const p = plugin[i]!;
        const where = `${builtIn} κ=${b.kappa} ξ=${b.xi}`;
        expect([p.kappa, p.xi], where).toEqual([b.kappa, b.xi]);
        expect(p.verdict, where).toBe(b.verdict);
        const [f, g] = [b.detectable_inflation, p.detectable_inflation];
        if (f === null || g === null) expect(g, where).toBe(f);
        else {
          const t = twin[i]!.detectable_inflation;
          expect(g, `${where}: ${f} (built-in; ${t} under other pilot noise) against ${g}`).toSatisfy((x: number) => withinOneStep(f, x) || (t !== null && withinSpan(f, t, x)));
        }
        if (p.verdict === 'violated' || p.verdict === 'law-mismatch') honestFlags++;
        if (g !== null && g <= 1.5) eligible.push(hid[i]!.verdict === 'violated' || hid[i]!.verdict === 'law-mismatch');
      });
      // the honest plugin: flagged in at most α of its rows
      expect(honestFlags / plugin.length, builtIn).toBeLessThanOrEqual(0.05);
      if (eligible.length < 30) {
        // too few rows where the audit can see ×1.5 at M = 5000 for the binomial check (LapLSH: the
        // black box alone, none; minhash-bucket: its keep-rate test, 5 of 36 at these κ and ξ)
        thin.push(`${builtIn} ${eligible.length}`);
        continue;
      }
      expect(eligible.length, builtIn).toBeGreaterThanOrEqual(30);
      const flagged = eligible.filter(Boolean).length;
      // H0: the rate is below 80%; reject at 1% (one-sided binomial)
      expect(binomialUpperP(flagged, eligible.length, 0.8), `${builtIn}: ${flagged} of ${eligible.length}`).toBeLessThanOrEqual(0.01);
      console.log(`${builtIn}: hidden ×1.5 flagged in ${flagged} of ${eligible.length} rows whose honest figure is <= 1.5; honest plugin flagged in ${honestFlags} of ${plugin.length}`);
    }
    // the ≥ 30-row check of a hidden ×1.5 holds for jl-gaussian; the others' grids are listed here
    expect(thin).toEqual(['laplsh 0', 'minhash-bucket 5']);
  }, 3_600_000);
});
