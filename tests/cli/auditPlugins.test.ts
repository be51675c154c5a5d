/**
 * `lshdp audit` of plugins (issue 52): a reals plugin (version 2) and a symbols plugin (version 1)
 * that declare their release law are audited through it (before: exit 2, the law dropped by the
 * loader); a plugin that flips bits at a rate kept in its own field gets a power figure from the
 * rate it realizes; one whose release ignores its ε and declares neither `flipsBits` nor a law gets
 * `not-testable` with no power figure and the reason why.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ROOT } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import type { AuditFile } from '../helpers/audit.js';

const FIXTURE = join(ROOT, 'tests/fixtures/data/ratings.csv');
const PLUGINS = join(ROOT, 'tests/fixtures/plugins');

function config(dir: string, mechanisms: string, xi = '[2, 5]'): string {
  const file = join(dir, 'audit-plugins.yaml');
  writeFileSync(
    file,
    `name: audit-plugins
seed: 3
datasets:
  - { name: tiny, format: movielens-csv, path: ${JSON.stringify(FIXTURE)} }
dims: [4]
queries: 0
k: [1]
kappa: [10]
trials: 1
privacy: { d: 0.1, delta: 0.01, xi: ${xi} }
mechanisms: ${mechanisms}
`,
  );
  return file;
}

const module = (file: string, extra = '') => `{ module: ${JSON.stringify(join(PLUGINS, file))}${extra} }`;

describe('lshdp audit of plugins', () => {
  it('reals (laplace law, v2) and symbols (4-ary RR law, v1) are audited through their declared law; own-field flips get a power figure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-plugins-'));
    const file = config(dir, `[${module('laplace-bits-v2.mjs')}, ${module('kary-rr-law.mjs')}, ${module('own-rate-flips.mjs')}]`, '[5]');
    const r = await lshdpIn(['audit', file, '--out', join(dir, 'out'), '--samples', '1000']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'out', 'audit.json'), 'utf8')) as AuditFile;
    const rows = json.results.map((x) => [x.mechanism, x.xi, x.verdict, x.tests.join('+'), x.detectable_by]);
    expect(rows).toEqual([
      ['laplace-bits', 5, 'no-violation-found', 'declared-tail+laplace-scale+laplace-law', 'laplace-scale'],
      ['kary-rr', 5, 'no-violation-found', 'declared-tail+keep-rate+rr-law', 'keep-rate'],
      ['own-rate', 5, 'no-violation-found', 'exact-tail+flip-rate+score-law+black-box', 'flip-rate'],
    ]);
    for (const x of json.results) {
      // a power figure on every row, within the ×100 the audit searches
      expect(x.detectable_inflation!, `${x.mechanism} ${x.xi}`).toBeGreaterThanOrEqual(1);
      expect(x.detectable_inflation!, `${x.mechanism} ${x.xi}`).toBeLessThan(2);
      expect(x.reason).toMatch(/^no test rejected; ×[\d.]+ on /);
    }
    // the realized per-position ε′ of the laws is near the declared ξ/κ, their lower bound below it
    for (const x of json.results.filter((y) => y.mechanism !== 'own-rate')) {
      expect(Math.abs((x.realized as number) / (x.xi / 10) - 1), `${x.mechanism} ${x.xi}`).toBeLessThan(0.35);
      expect(x.realized_lb!, `${x.mechanism} ${x.xi}`).toBeLessThanOrEqual(x.xi / 10);
    }
  }, 120_000);

  it('a hidden ×1.5 on the own-field rate is violated; a law read from its own field gets the law’s power; a release that ignores its ε without flipsBits or a law: not-testable, no figure, the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-plugins-'));
    // the own-field flipper without flipsBits: a black box whose release does not move with its ε
    const text = readFileSync(join(PLUGINS, 'own-rate-flips.mjs'), 'utf8').replace("name: 'own-rate'", "name: 'own-rate-bb'").replace('  flipsBits: true,\n', '');
    writeFileSync(join(PLUGINS, '.own-rate-bb.test.mjs'), text);
    try {
      // the laplace plugin reading its ε′ from a field of its own (but for its clean release, ε = ∞):
      // its release does not move under ×2, its law gives the power (scale ÷ f)
      const own = readFileSync(join(PLUGINS, 'laplace-bits-v2.mjs'), 'utf8')
        .replace("name: 'laplace-bits'", "name: 'laplace-own'")
        .replace('({ epsilon: xi / kappa, ldpEpsilon: xi, fallback: false })', '({ epsilon: xi / kappa, ldpEpsilon: xi, fallback: false, own: xi / kappa })')
        .replace('const e = eps.epsilon;', 'const e = eps.epsilon === Infinity ? Infinity : eps.own;');
      writeFileSync(join(dir, 'laplace-own.mjs'), own);
      const file = config(dir, `[${module('.own-rate-bb.test.mjs')}, ${module('own-rate-flips.mjs', ', hidden: 1.5, label: hidden')}, { module: ./laplace-own.mjs }]`);
      const r = await lshdpIn(['audit', file, '--out', join(dir, 'out'), '--samples', '1000']);
      expect(r.status, r.stderr).toBe(3);
      const json = JSON.parse(readFileSync(join(dir, 'out', 'audit.json'), 'utf8')) as AuditFile;
      const bb = json.results.filter((x) => x.mechanism === 'own-rate-bb');
      expect(bb.map((x) => [x.verdict, x.detectable_inflation, x.samples_needed])).toEqual([
        ['not-testable', null, null],
        ['not-testable', null, null],
      ]);
      for (const x of bb) expect(x.reason).toBe('power not computable: the release did not change when its ε was scaled ×2 (declare `inflate`, or `flipsBits`, or a release law)');
      const csv = parse(readFileSync(join(dir, 'out', 'audit.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
      for (const row of csv.filter((x) => x.mechanism === 'own-rate-bb')) expect([row.detectable_inflation, row.samples_needed]).toEqual(['', '']);
      for (const x of json.results.filter((y) => y.mechanism === 'laplace-own')) {
        expect([x.verdict, x.detectable_by], `laplace-own ${x.xi}`).toEqual(['no-violation-found', 'laplace-scale']);
        expect(x.detectable_inflation!).toBeLessThan(2);
      }
      expect(json.results.filter((x) => x.mechanism === 'hidden').map((x) => [x.verdict, x.detectable_by])).toEqual([
        ['violated', 'flip-rate'],
        ['violated', 'flip-rate'],
      ]);
    } finally {
      rmSync(join(PLUGINS, '.own-rate-bb.test.mjs'), { force: true });
    }
  }, 120_000);
});
