/**
 * Version 2 of the plugin contract (issue 52): `apiVersion`, what a version-2 plugin may declare
 * (a Mechanism minus PLUGIN_INTERNAL_FIELDS), what its encode gets (read-only views of the trial's
 * arrays, not copies), its options checked against its optionSchema as a built-in's are, and the
 * v1 contract unchanged beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlugin, pluginMechanism, PLUGIN_INTERNAL_FIELDS, type PluginView } from '../../src/mechanisms/plugin.js';
import { angularFamily } from '../../src/lsh/families/index.js';
import { drawHyperplanes, projectAll, type TrialHashing } from '../../src/lsh/hyperplanes.js';
import { packSigns } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { pluginOptionProblems } from '../../src/mechanisms/pluginOptions.js';
import type { Mechanism } from '../../src/mechanisms/types.js';
import type { UserVectors } from '../../src/data/types.js';
import { lshdpIn } from '../helpers/inproc.js';
import { ROOT } from '../helpers/cli.js';

let dir = '';
const V2 = 'apiVersion: 2, usesXi: false, encode: (v) => v.hashing.clean';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-plugins-v2-'));
  const files: Record<string, string> = {
    'v3.mjs': "export default { apiVersion: 3, name: 'future', usesXi: false, encode: () => null };",
    'v-string.mjs': "export default { apiVersion: '2', name: 'str', usesXi: false, encode: () => null };",
    'internal.mjs': `export default { name: 'kinded', kind: 'exact', ${V2} };`,
    'option-keys.mjs': `export default { name: 'keys', optionKeys: ['a'], ${V2} };`,
    'bad-schema.mjs': `export default { name: 'schema', optionSchema: { rate: { type: 'real', min: 0, max: 1, default: 2, noun: 'a rate' } }, ${V2} };`,
    'bad-kind.mjs': `export default { name: 'ek', epsilonKind: 'laplace', ${V2} };`,
    'own-rows.mjs': `export default { name: 'rows', budgetRows: 'own', ${V2} };`,
    'options.mjs': `export default { name: 'opts', optionSchema: { rate: { type: 'real', min: 0, max: 1, default: 0.25, noun: 'a rate' }, mode: { type: 'choice', values: ['fast', 'exact'], default: 'fast', noun: 'a mode' }, loud: { type: 'boolean', default: false, noun: 'a switch' }, block: { type: 'integer', min: 1, max: 8, default: 2, noun: 'a block size' } }, accountants: ['mine', 'theirs'], ${V2} };`,
    // keeps the view it was given, for the test to look at
    'spy.mjs': `globalThis.lshdpSpySeen = []; export default { name: 'spy', apiVersion: 2, usesXi: true, epsilonKind: 'bit', epsilon: (xi, kappa, privacy) => ({ epsilon: xi / kappa, ldpEpsilon: xi, fallback: false, p: privacy.disagreement(privacy.d) }), encode: (v, eps) => { globalThis.lshdpSpySeen.push([v, eps]); return v.hashing.clean; }, inflate: (eps, f) => ({ ...eps, p: eps.p * f }) };`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function loadError(file: string): Promise<string> {
  const err = await loadPlugin(file, dir).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UserError);
  expect((err as Error).message).not.toContain('\n');
  return (err as Error).message;
}

describe('apiVersion', () => {
  it('lshdp runs the current version and the one before; any other is one line naming the module and the versions', async () => {
    expect(await loadError('v3.mjs')).toBe('mechanism module v3.mjs: apiVersion 3 is not a plugin contract this lshdp runs (it runs apiVersion 1 and 2; none means 1)');
    expect(await loadError('v-string.mjs')).toMatch(/^mechanism module v-string\.mjs: apiVersion "2" is not a plugin contract/);
  });

  it('a version-2 plugin may not set the internal fields; its facts are typed', async () => {
    expect(PLUGIN_INTERNAL_FIELDS).toEqual(['kind', 'usesKappa', 'budgetDistance', 'optionKeys', 'keepsClean']);
    expect(await loadError('internal.mjs')).toBe('mechanism module internal.mjs: kind is set by lshdp for every plugin, not declared (apiVersion 2)');
    expect(await loadError('option-keys.mjs')).toMatch(/optionKeys is set by lshdp .*declare optionSchema instead/);
    expect(await loadError('bad-schema.mjs')).toBe('mechanism module bad-schema.mjs: optionSchema.rate.default must lie in [min, max]');
    expect(await loadError('bad-kind.mjs')).toMatch(/epsilonKind must be one of bit, lap, concentration; got "laplace"/);
    expect(await loadError('own-rows.mjs')).toMatch(/budgetRows 'own' needs a budgetRow function/);
  });
});

/** A small angular trial: 6 users of n = 5, κ = 12. */
function trial(): { vectors: UserVectors; hashing: TrialHashing } {
  const n = 5;
  const users = 6;
  const rowPtr = Int32Array.from({ length: users + 1 }, (_, i) => i * 2);
  const colIdx = Int32Array.from({ length: users * 2 }, (_, k) => (k * 3 + Math.floor(k / 2)) % n);
  for (let i = 0; i < users; i++) if (colIdx[2 * i] === colIdx[2 * i + 1]) colIdx[2 * i + 1] = (colIdx[2 * i + 1]! + 1) % n;
  for (let i = 0; i < users; i++) if (colIdx[2 * i]! > colIdx[2 * i + 1]!) colIdx.set([colIdx[2 * i + 1]!, colIdx[2 * i]!], 2 * i);
  const values = new Float64Array(users * 2).fill(Math.SQRT1_2);
  const vectors = { dataset: 't', n, userIds: [], itemIds: [], rowPtr, colIdx, values, dropped: 0 } as UserVectors;
  const planes = drawHyperplanes(makeRng('planes'), 12, n);
  const projections = projectAll(vectors, planes, 12);
  return { vectors, hashing: { kappa: 12, n, planes, projections, codes: packSigns(projections, users, 12) } };
}

describe("a version-2 plugin's encode gets a built-in's context as read-only views", () => {
  it('the vectors, hyperplanes, projections and clean codes are the trial’s own arrays (no copies); perTrial, rng, options, privacy reach it', async () => {
    const loaded = await loadPlugin('spy.mjs', dir);
    const seen = (globalThis as unknown as { lshdpSpySeen: [PluginView, Record<string, unknown>][] }).lshdpSpySeen;
    const m: Mechanism = pluginMechanism(loaded, angularFamily.disagreement);
    expect([m.kind, m.usesKappa, m.budgetDistance, m.epsilonKind, m.optionKeys]).toEqual(['code', true, 'family', 'bit', []]);
    const { vectors, hashing } = trial();
    const eps = m.epsilon(6, 12, { d: 0.2, delta: 0.01 }, {});
    expect(eps).toMatchObject({ epsilon: 0.5, ldpEpsilon: 6, fallback: false, p: 0.2 });
    const rng = makeRng('noise');
    const shared: string[] = [];
    const perTrial = <T>(key: string, make: (r: typeof rng, a: (n: number) => Float64Array) => T): T => {
      shared.push(key);
      return make(rng, (n) => new Float64Array(n));
    };
    const out = m.encode!({ vectors, hashing, rng, options: {}, perTrial }, eps);
    expect(seen).toHaveLength(1);
    const [view, got] = seen[0]!;
    expect(view.vectors).toBe(vectors);
    expect(view.hashing.planes).toBe(hashing.planes);
    expect(view.hashing.projections).toBe(hashing.projections);
    expect(view.hashing.clean).toBe(hashing.codes);
    expect(view.rng).toBe(rng);
    expect([view.users, view.kappa, view.privacy, view.disagreement(0.3)]).toEqual([6, 12, { xi: 6, d: 0.2, delta: 0.01 }, 0.3]);
    view.perTrial('k', () => 1);
    expect(shared).toEqual(['k']);
    expect(got).toBe(eps);
    // its release is checked and copied like a version-1 plugin's
    expect('codes' in out && out.codes).toEqual(hashing.codes!.codes);
    // its own inflate: the audit and the attacks scale through it
    expect(m.inflate!(eps, 2)).toMatchObject({ epsilon: 0.5, p: 0.4 });
    // outside a trial cell perTrial runs make on the rng
    m.encode!({ vectors, hashing, rng, options: {} }, eps);
    expect(seen[1]![0].perTrial('x', (r) => r)).toBe(rng);
  });
});

describe("a version-2 plugin's options are checked as a built-in's", () => {
  it('values against its optionSchema (reals with ranges, booleans, choices with a did-you-mean), its accountants, defaults filled in', async () => {
    const loaded = await loadPlugin('options.mjs', dir);
    const p = loaded.plugin;
    expect(pluginOptionProblems(p, { rate: 0.5, mode: 'exact', loud: true, block: 8, accountant: 'theirs' })).toEqual([]);
    const texts = pluginOptionProblems(p, { rate: 1.5, mode: 'exakt', loud: 'yes', block: 2.5, accountant: 'mien', rat: 1 }).map((x) => `${x.key}: ${x.text}`);
    expect(texts).toEqual([
      'rate: option rate must be a number in [0, 1], got 1.5',
      'mode: option mode must be one of fast, exact, got "exakt" (did you mean "exact"?)',
      'loud: option loud must be true or false, got "yes"',
      'block: option block must be an integer in [1, 8], got 2.5',
      'accountant: option accountant must be one of mine, theirs, got "mien" (did you mean "mine"?)',
      'rat: has no option "rat" (did you mean "rate"?) (known: rate, mode, loud, block, accountant)',
    ]);
    const m = pluginMechanism(loaded, angularFamily.disagreement);
    expect(m.optionKeys).toEqual(['rate', 'mode', 'loud', 'block', 'accountant']);
    const { vectors, hashing } = trial();
    expect(() => m.encode!({ vectors, hashing, rng: makeRng('x'), options: { mode: 'exakt' } }, m.epsilon(0, 12, { d: 0.1, delta: 0.01 }))).toThrow(
      /^mechanism module options\.mjs: option mode must be one of fast, exact, got "exakt" \(did you mean "exact"\?\)$/,
    );
  });

  it('the config check names the entry and key, with a did-you-mean, for plugin options as for built-ins', async () => {
    writeFileSync(
      join(dir, 'cfg.yaml'),
      [
        'name: cfg',
        'datasets:',
        '  - { name: synth, format: synthetic, preset: small }',
        'dims: [20]',
        'kappa: [8]',
        'k: [1]',
        'privacy: { d: 0.1, delta: 0.01, xi: [1] }',
        'mechanisms: [exact, { module: ./options.mjs, rat: 0.5, mode: exakt }]',
        '',
      ].join('\n'),
    );
    const r = await lshdpIn(['run', join(dir, 'cfg.yaml'), '--out', join(dir, 'out'), '--dry-run']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('mechanisms[1].rat: plugin opts (./options.mjs) has no option "rat" (did you mean "rate"?)');
    expect(r.stderr).toContain('mechanisms[1].mode: plugin opts (./options.mjs): option mode must be one of fast, exact, got "exakt" (did you mean "exact"?)');
  });
});

describe('version-1 plugins run unchanged', () => {
  it('the examples and fixtures load as version 1 and keep their option keys', async () => {
    for (const f of ['examples/mechanisms/lsh-oue.mjs', 'examples/mechanisms/zeroed-bits.mjs', 'tests/fixtures/plugins/pairs-rr.mjs', 'tests/fixtures/plugins/noisy-signs.mjs']) {
      const loaded = await loadPlugin(join(ROOT, f));
      expect(loaded.plugin.apiVersion ?? 1, f).toBe(1);
      const m = pluginMechanism(loaded, angularFamily.disagreement);
      expect(m.budgetDistance).toBe('family');
      expect(m.releaseLaw, f).toBeUndefined();
    }
  });
});
