import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';

/** The package imported BY NAME (self-reference through package.json `exports`), as a user would. */
describe("import … from 'lshdp'", () => {
  it('exposes what a researcher scripts with, with type declarations', async () => {
    const lib = (await import('lshdp')) as Record<string, unknown>;
    const expected = [
      'loadDataset',
      'loadFamilyData',
      'exactKnn',
      'jaccardKnn',
      'hammingKnn',
      'tieSeed',
      'drawHyperplanes',
      'projectAll',
      'packSigns',
      'getMechanism',
      'listMechanisms',
      'registerMechanism',
      'loadPlugin',
      'pluginMechanism',
      'accountEpsilon',
      'lshrrEpsilon',
      'solveAlpha',
      'exactEpsilon',
      'evaluateAnswers',
      'sampleQueries',
      'runExperiment',
      'loadConfig',
      'encodeUsers',
      'cryptoRng',
      'readResultsFolder',
      'utilityTable',
      'budgetsTable',
      'fig1Spec',
      'fig2Spec',
      'renderSvg',
      'buildOutputs',
    ];
    for (const name of expected) expect(typeof lib[name], name).toBe('function');
    expect(lib.angularFamily).toMatchObject({ name: 'angular' });
    expect(lib.jaccardFamily).toMatchObject({ name: 'jaccard' });
    for (const [name, m] of [
      ['lsh', lib.lshMechanism],
      ['lshrr', lib.lshrrMechanism],
      ['laplsh', lib.laplshMechanism],
      ['rappor', lib.rapporMechanism],
    ] as const) {
      expect(m).toMatchObject({ name });
      expect(typeof (m as { epsilon: unknown }).epsilon).toBe('function');
      expect(typeof (m as { encode: unknown }).encode).toBe('function');
    }
    const dts = readFileSync(join(ROOT, 'dist', 'index.d.ts'), 'utf8');
    expect(dts).toMatch(/encodeUsers/);
    expect(dts).toMatch(/MechanismPlugin/);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['.'].types).toBe('./dist/index.d.ts');
  });

  it('a plugin registered through the library encodes like a built-in', async () => {
    const lib = await import('lshdp');
    const loaded = await lib.loadPlugin(join(ROOT, 'examples', 'mechanisms', 'zeroed-bits.mjs'));
    const key = lib.registerMechanism(lib.pluginMechanism(loaded, lib.angularFamily.disagreement), 'library-test-zeroed');
    const mech = lib.getMechanism(key);
    const codes = { codes: Uint32Array.from([0xffffffff, 0x0f0f0f0f]), bits: 32, words: 1 };
    const hashing = { kappa: 32, n: 1, planes: new Float64Array(0), projections: new Float64Array(0), codes };
    const out = mech.encode!({ vectors: { rowPtr: new Int32Array(3) } as never, hashing, rng: lib.makeRng('x'), options: { share: 0.5 } }, mech.epsilon(0, 32, { d: 0.1, delta: 0.01 }));
    expect(Array.from(lib.bitsOf(out).codes)).toEqual([0xffff0000, 0x0f0f0000]);
    lib.unregisterMechanism(key);
  });
});

/** The library example of docs/LIBRARY.md is examples/library.mjs, run as a user runs it. */
describe('the library example (docs/LIBRARY.md)', () => {
  it('runs and shows LSH beating LSHRR at xi 5, LSHRR improving with xi', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-lib-'));
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'examples', 'library.mjs')], { cwd, encoding: 'utf8', timeout: 300_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(3);
      const parse = (l: string) =>
        Object.fromEntries(
          l
            .split(' ')
            .slice(1)
            .map((kv) => kv.split('=')),
        );
      const [lsh, rr50, rr5] = lines.map(parse);
      expect(lines[0]).toMatch(/^lsh xi=- /);
      expect(Number(rr5!.epsilon_bit)).toBeLessThan(Number(rr50!.epsilon_bit));
      expect(Number(lsh!.utility_loss)).toBeLessThan(Number(rr5!.utility_loss));
      expect(Number(rr50!.utility_loss)).toBeLessThan(Number(rr5!.utility_loss));
      expect(Number(lsh!.recall)).toBeGreaterThan(Number(rr5!.recall));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('is the code docs/LIBRARY.md shows', () => {
    const text = readFileSync(join(ROOT, 'docs', 'LIBRARY.md'), 'utf8');
    expect(text).toContain(readFileSync(join(ROOT, 'examples', 'library.mjs'), 'utf8').trim());
  });
});
