import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserVectors } from '../../src/data/types.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { TrialHashing } from '../../src/lsh/hyperplanes.js';
import { epsilonOnFamily } from '../../src/privacy/onFamily.js';
import { loadPlugin, pluginMechanism } from '../../src/mechanisms/plugin.js';
import { getMechanism, hasRole, listMechanisms, mechanismInfo, registerMechanism, unregisterMechanism } from '../../src/mechanisms/registry.js';
import { MECHANISM_ROLES } from '../../src/mechanisms/types.js';
import { angularFamily, jaccardFamily } from '../../src/lsh/families/index.js';
import { emptyCodes, getBit } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { klBernoulli, lshrrEpsilon } from '../../src/privacy/index.js';
import { UserError } from '../../src/util/errors.js';
import { ROOT } from '../helpers/cli.js';
import { bitsOf } from '../../src/lsh/releases.js';

const EXAMPLES = join(ROOT, 'examples', 'mechanisms');
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-plugins-'));
  const files: Record<string, string> = {
    'ok.mjs': "export default { name: 'copy', usesXi: false, encode: ({ codes }) => codes };",
    'no-encode.mjs': "export default { name: 'nothing', usesXi: false };",
    'no-default.mjs': 'export const x = 1;',
    'syntax.mjs': 'export default { name: ',
    'bad-name.mjs': "export default { name: 'has space', usesXi: false, encode: ({ codes }) => codes };",
    'xi-no-eps.mjs': "export default { name: 'xi', usesXi: true, encode: ({ codes }) => codes };",
    'short.mjs': "export default { name: 'short', usesXi: false, encode: ({ codes, users }) => ({ codes: new Uint32Array(users - 1), bits: codes.bits, words: 1 }) };",
    'words.mjs': "export default { name: 'words', usesXi: false, encode: ({ codes, users }) => ({ codes: new Uint32Array(users * 2), bits: codes.bits, words: 2 }) };",
    'high.mjs': "export default { name: 'high', usesXi: false, encode: ({ codes, users }) => ({ codes: new Uint32Array(users).fill(0xffffffff), bits: codes.bits, words: 1 }) };",
    'array.mjs': "export default { name: 'arr', usesXi: false, encode: ({ codes }) => ({ codes: Array.from(codes.codes), bits: codes.bits, words: codes.words }) };",
    'throws.mjs': "export default { name: 'boom', usesXi: false, encode: () => { throw new Error('out of coffee\\nsecond line'); } };",
    'bad-eps.mjs': "export default { name: 'neg', usesXi: true, epsilon: () => ({ epsilon_bit: -1 }), encode: ({ codes }) => codes };",
    'declares.mjs': "export default { name: 'rr-like', usesXi: false, roles: ['bitwise-rr'], algorithm: '2', ldpNote: 'κ·ε for mine', flipsBits: true, encode: ({ codes }) => codes };",
    'bad-role.mjs': "export default { name: 'badrole', usesXi: false, roles: ['lshrr'], encode: ({ codes }) => codes };",
    'bad-flag.mjs': "export default { name: 'badflag', usesXi: false, hashesFromNoise: 'yes', encode: ({ codes }) => codes };",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A trial hashing with given clean codes (plugins only read the codes). */
function hashingOf(codes: CodeSet, kappa: number): TrialHashing {
  return { kappa, n: 1, planes: new Float64Array(0), projections: new Float64Array(0), codes };
}
const NO_VECTORS = { rowPtr: new Int32Array(1) } as unknown as UserVectors;

function randomCodes(users: number, bits: number, seed: string): CodeSet {
  const rng = makeRng(seed);
  const set = emptyCodes(users, bits);
  for (let i = 0; i < users; i++) for (let j = 0; j < bits; j++) if (rng() < 0.5) set.codes[i * set.words + (j >>> 5)] |= 1 << (j & 31);
  return set;
}

async function encodeWith(file: string, users = 5, bits = 20) {
  const loaded = await loadPlugin(file, dir);
  const mech = pluginMechanism(loaded, angularFamily.disagreement);
  const eps = mech.epsilon(0, bits, { d: 0.1, delta: 0.01 }, {});
  const clean = randomCodes(users, bits, file);
  return bitsOf(mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, bits), rng: makeRng('x'), options: {} }, eps));
}

describe('loadPlugin: one-line errors naming the module', () => {
  const cases: [string, RegExp][] = [
    ['missing.mjs', /^mechanism module missing\.mjs: no such file$/],
    ['syntax.mjs', /^mechanism module syntax\.mjs: failed to load: /],
    ['no-encode.mjs', /^mechanism module no-encode\.mjs: lacks an encode function$/],
    ['no-default.mjs', /^mechanism module no-default\.mjs: has no default export object/],
    ['bad-name.mjs', /^mechanism module bad-name\.mjs: name must be/],
    ['xi-no-eps.mjs', /^mechanism module xi-no-eps\.mjs: usesXi is true but it lacks an epsilon function$/],
  ];
  for (const [file, re] of cases) {
    it(file, async () => {
      const err = await loadPlugin(file, dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain('\n');
    });
  }

  it('codes of the wrong shape, a throwing plugin and a bad epsilon are one-line errors too', async () => {
    await expect(encodeWith('short.mjs')).rejects.toThrow(/^mechanism module short\.mjs: encode returned 4 words, expected users \* words = 5 \* 1$/);
    await expect(encodeWith('words.mjs')).rejects.toThrow(/words = 2, expected ceil\(bits \/ 32\) = 1/);
    await expect(encodeWith('high.mjs')).rejects.toThrow(/bits set beyond bit 20/);
    await expect(encodeWith('array.mjs')).rejects.toThrow(/codes that are not a Uint32Array/);
    await expect(encodeWith('throws.mjs')).rejects.toThrow(/^mechanism module throws\.mjs: encode failed: out of coffee$/);
    const loaded = await loadPlugin('bad-eps.mjs', dir);
    expect(() => pluginMechanism(loaded, angularFamily.disagreement).epsilon(1, 20, { d: 0.1, delta: 0.01 })).toThrow(/epsilon returned epsilon_bit = -1/);
  });

  it('records the SHA-256 of the file; a plugin returning its input gets a copy of the clean codes', async () => {
    const loaded = await loadPlugin('ok.mjs', dir);
    expect(loaded.sha256).toBe(createHash('sha256').update("export default { name: 'copy', usesXi: false, encode: ({ codes }) => codes };").digest('hex'));
    const clean = randomCodes(7, 40, 'copy');
    const before = clean.codes.slice();
    const mech = pluginMechanism(loaded, angularFamily.disagreement);
    const out = bitsOf(mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, 40), rng: makeRng('x'), options: {} }, mech.epsilon(0, 40, { d: 0.1, delta: 0.01 })));
    expect(out.codes).toEqual(clean.codes);
    expect(out.codes).not.toBe(clean.codes);
    out.codes[0] ^= 1;
    expect(clean.codes).toEqual(before);
  });

  it('an edited file is loaded anew (new hash, new code)', async () => {
    const f = join(dir, 'edit.mjs');
    writeFileSync(f, "export default { name: 'v1', usesXi: false, encode: ({ codes }) => codes };");
    const a = await loadPlugin(f);
    writeFileSync(f, "export default { name: 'v2', usesXi: false, encode: ({ codes }) => codes };");
    const b = await loadPlugin(f);
    expect(a.plugin.name).toBe('v1');
    expect(b.plugin.name).toBe('v2');
    expect(a.sha256).not.toBe(b.sha256);
  });

  it('registers under a key; a built-in name is refused', async () => {
    const m = pluginMechanism(await loadPlugin('ok.mjs', dir), angularFamily.disagreement);
    registerMechanism(m, 'plugin-test-copy');
    expect(getMechanism('plugin-test-copy')).toBe(m);
    unregisterMechanism('plugin-test-copy');
    expect(() => getMechanism('plugin-test-copy')).toThrow(UserError);
    expect(() => registerMechanism(m, 'lshrr')).toThrow(/built in/);
  });
});

describe('a plugin declares the plain facts a built-in unit does', () => {
  it('its declared facts reach the registry entry (the claims pick it by role); none declared: none carried', async () => {
    const m = pluginMechanism(await loadPlugin('declares.mjs', dir), angularFamily.disagreement);
    expect([m.roles, m.algorithm, m.ldpNote, m.flipsBits, m.hashesFromNoise]).toEqual([['bitwise-rr'], '2', 'κ·ε for mine', true, undefined]);
    expect(hasRole('plugin-test-rr', 'bitwise-rr')).toBe(false);
    registerMechanism(m, 'plugin-test-rr');
    expect(hasRole('plugin-test-rr', 'bitwise-rr')).toBe(true);
    expect(mechanismInfo('plugin-test-rr').algorithm).toBe('2');
    unregisterMechanism('plugin-test-rr');
    const plain = pluginMechanism(await loadPlugin('ok.mjs', dir), angularFamily.disagreement);
    for (const key of ['roles', 'algorithm', 'ldpNote', 'flipsBits', 'hashesFromNoise', 'cleanIsLshCode', 'bloomFilter']) expect(Object.hasOwn(plain, key)).toBe(false);
  });

  it('an unknown role or a fact of the wrong type is a one-line error naming the module', async () => {
    await expect(loadPlugin('bad-role.mjs', dir)).rejects.toThrow(/bad-role\.mjs: roles must be an array of: clean-lsh, bitwise-rr, .*; got \["lshrr"\]/);
    await expect(loadPlugin('bad-flag.mjs', dir)).rejects.toThrow(/bad-flag\.mjs: hashesFromNoise must be true or false, got "yes"/);
  });

  it('the built-ins play the roles the claims name (each role held by exactly one built-in)', () => {
    const holders = Object.fromEntries(
      MECHANISM_ROLES.map((r) => [
        r,
        listMechanisms()
          .filter((m) => hasRole(m.name, r))
          .map((m) => m.name),
      ]),
    );
    expect(holders).toEqual({
      'clean-lsh': ['lsh'],
      'bitwise-rr': ['lshrr'],
      'laplace-vector': ['laplsh'],
      'bloom-whole-vector': ['rappor-vector'],
      'directional-euclidean': ['vmf'],
      'directional-angular': ['purkayastha'],
      'gaussian-projection': ['jl-gaussian'],
      'bucket-minhash': ['minhash-bucket'],
      'noisy-minhash': ['minhash-noisy'],
    });
  });
});

describe('examples/mechanisms/zeroed-bits.mjs', () => {
  it('zeroes exactly the first round(share * kappa) bits and keeps the others', async () => {
    const loaded = await loadPlugin(join(EXAMPLES, 'zeroed-bits.mjs'));
    const mech = pluginMechanism(loaded, angularFamily.disagreement);
    const clean = randomCodes(50, 40, 'zero');
    const out = bitsOf(mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, 40), rng: makeRng('x'), options: { share: 0.25 } }, mech.epsilon(0, 40, { d: 0.1, delta: 0.01 })));
    for (let i = 0; i < 50; i++) for (let j = 0; j < 40; j++) expect(getBit(out, i, j)).toBe(j < 10 ? 0 : getBit(clean, i, j));
    expect(() => bitsOf(mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, 40), rng: makeRng('x'), options: { share: 2 } }, mech.epsilon(0, 40, { d: 0.1, delta: 0.01 })))).toThrow(
      /encode failed: option share must be a number in \[0, 1\]/,
    );
  });
});

describe('examples/mechanisms/lsh-oue.mjs (LSH + OUE, Wang et al. 2017)', () => {
  const load = async () => pluginMechanism(await loadPlugin(join(EXAMPLES, 'lsh-oue.mjs')), angularFamily.disagreement);

  it('block = 1 is the paper accountant of LSHRR (r = p, L = kappa)', async () => {
    const mech = await load();
    for (const [xi, kappa, d] of [
      [5, 20, 0.1],
      [1, 64, 0.05],
      [30, 10, 0.3],
    ] as const) {
      const info = mech.epsilon(xi, kappa, { d, delta: 0.01 }, { block: 1 });
      const ref = lshrrEpsilon(xi, kappa, { d, delta: 0.01 });
      expect(info.epsilon).toBeCloseTo(ref.epsilon!, 12);
      expect(info.fallback).toBe(ref.fallback);
    }
  });

  it('block = 4: eps solves xi = eps L (r + alpha) with L KL(r + alpha || r) = ln(1/delta), r = 1 - (1 - p)^4', async () => {
    const mech = await load();
    const kappa = 40;
    const delta = 0.01;
    const d = 0.05;
    const info = mech.epsilon(8, kappa, { d, delta }, { block: 4 });
    const L = 10;
    const r = 1 - (1 - d) ** 4;
    const eps = info.epsilon!;
    const alpha = 8 / (eps * L) - r;
    expect(alpha).toBeGreaterThan(0);
    expect(L * klBernoulli(r + alpha, r)).toBeCloseTo(Math.log(1 / delta), 9);
    expect(info.ldpEpsilon).toBeCloseTo(L * eps, 12);
    // on Jaccard the per-bit probability is d/2
    const jm = pluginMechanism(await loadPlugin(join(EXAMPLES, 'lsh-oue.mjs')), jaccardFamily.disagreement);
    const rj = 1 - (1 - d / 2) ** 4;
    const ej = jm.epsilon(8, kappa, { d, delta }, { block: 4 }).epsilon!;
    expect(L * klBernoulli(8 / (ej * L), rj)).toBeCloseTo(Math.log(1 / delta), 9);
  });

  it('one block is eps-LDP: brute force over every output of a 2-bit block (worst ratio = e^eps)', () => {
    const eps = 1.3;
    const q = 1 / (Math.exp(eps) + 1);
    const prob = (v: number, y: number) => {
      let pr = 1;
      for (let u = 0; u < 4; u++) {
        const one = (y >> u) & 1;
        const p1 = u === v ? 0.5 : q;
        pr *= one ? p1 : 1 - p1;
      }
      return pr;
    };
    let worst = 0;
    for (let v = 0; v < 4; v++) for (let w = 0; w < 4; w++) for (let y = 0; y < 16; y++) worst = Math.max(worst, prob(v, y) / prob(w, y));
    expect(worst).toBeCloseTo(Math.exp(eps), 12);
  });

  it('output: one-hot blocks randomized with Pr[1 stays 1] = 1/2 and Pr[0 becomes 1] = 1/(e^eps + 1) (4.5 SE)', async () => {
    const mech = await load();
    const kappa = 20;
    const users = 3000;
    const clean = randomCodes(users, kappa, 'oue');
    const info = mech.epsilon(10, kappa, { d: 0.1, delta: 0.01 }, { block: 4 });
    const out = bitsOf(mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, kappa), rng: makeRng('oue-noise'), options: { block: 4 } }, info));
    expect(out.bits).toBe(5 * 16);
    let hot = 0;
    let hotOnes = 0;
    let cold = 0;
    let coldOnes = 0;
    for (let i = 0; i < users; i++) {
      for (let b = 0; b < 5; b++) {
        let v = 0;
        for (let t = 0; t < 4; t++) v |= getBit(clean, i, 4 * b + t) << t;
        for (let u = 0; u < 16; u++) {
          const bit = getBit(out, i, 16 * b + u);
          if (u === v) {
            hot++;
            hotOnes += bit;
          } else {
            cold++;
            coldOnes += bit;
          }
        }
      }
    }
    const q = 1 / (Math.exp(info.epsilon!) + 1);
    expect(Math.abs(hotOnes / hot - 0.5)).toBeLessThan(4.5 * Math.sqrt(0.25 / hot));
    expect(Math.abs(coldOnes / cold - q)).toBeLessThan(4.5 * Math.sqrt((q * (1 - q)) / cold));
    // and the 1 -> 0 direction of the cold bits never happens at eps = Infinity
    const inf = bitsOf(
      mech.encode!({ vectors: NO_VECTORS, hashing: hashingOf(clean, kappa), rng: makeRng('oue-inf'), options: { block: 4 } }, { ...info, plugin: { epsilon_bit: Infinity } } as never),
    );
    for (let i = 0; i < 50; i++) {
      for (let b = 0; b < 5; b++) {
        let v = 0;
        for (let t = 0; t < 4; t++) v |= getBit(clean, i, 4 * b + t) << t;
        for (let u = 0; u < 16; u++) if (u !== v) expect(getBit(inf, i, 16 * b + u)).toBe(0);
      }
    }
  });

  it('epsilonOnFamily: built-ins get the per-bit probability, plugins the distance', async () => {
    const lshrr = getMechanism('lshrr');
    const onJaccard = epsilonOnFamily(lshrr, jaccardFamily.disagreement, 5, 20, { d: 0.2, delta: 0.01 }, { accountant: 'paper' });
    expect(onJaccard.epsilon).toBe(lshrrEpsilon(5, 20, { d: 0.1, delta: 0.01 }).epsilon);
    const oue = await load();
    const viaFamily = epsilonOnFamily(oue, angularFamily.disagreement, 5, 20, { d: 0.2, delta: 0.01 }, { block: 1 });
    expect(viaFamily.epsilon).toBeCloseTo(lshrrEpsilon(5, 20, { d: 0.2, delta: 0.01 }).epsilon!, 12);
  });
});
