/**
 * The attacker of a trial cell (src/evaluations/attack/cell.ts) with a clean release the mechanism
 * kept on the way (RAPPOR's filters, MechanismContext.keepClean): the same reid values as encoding
 * the probes again, for profiles known whole (taken from the kept rows) and in part (encoded), and
 * the kept rows used only where the profiles are the users' whole rows.
 */
import { describe, expect, it } from 'vitest';
import { cellAttacker, trialProfiles } from '../../../src/evaluations/attack/cell.js';
import { getFamily } from '../../../src/lsh/families/index.js';
import { getMechanism } from '../../../src/mechanisms/registry.js';
import type { Mechanism } from '../../../src/mechanisms/types.js';
import type { ReleaseSet } from '../../../src/lsh/releases.js';
import { deriveSeed, makeRng } from '../../../src/random/rng.js';
import type { UserVectors } from '../../../src/data/types.js';
import { clusteredVectors } from '../../lsh/synthetic.js';

const PRIVACY = { d: 0.1, delta: 0.01 };

/** The attack of one RAPPOR release at known 0.5 and 1, with and without its kept clean release, and how often each encoded a probe. */
function attackBoth(vectors: UserVectors, name: string) {
  const kappa = 24;
  const at = { runSeed: 5, dataset: 'd', n: vectors.n, kappa, trial: 0 };
  const family = getFamily('angular');
  const hashing = family.hash(vectors, kappa, deriveSeed(5, 'planes', 'd', vectors.n, kappa, 0));
  const base = getMechanism(name);
  let encodes = 0;
  const mech: Mechanism = {
    ...base,
    encode: (ctx, e) => {
      encodes++;
      return base.encode!(ctx, e);
    },
  };
  const eps = mech.epsilon(2, kappa, PRIVACY);
  const noiseSeed = 'noise-of-this-result';
  let clean: ReleaseSet | undefined;
  const codes = base.encode!({ vectors, hashing, rng: makeRng(noiseSeed), options: {}, keepClean: (c) => (clean = c) }, eps);
  const release = { mech, options: {}, noiseSeed, eps, codes };
  const run = (kept?: ReleaseSet) => {
    encodes = 0;
    const attacker = cellAttacker(vectors, at, Infinity, family, trialProfiles(vectors, at));
    return { values: attacker(kept ? { ...release, clean: kept } : release, [0.5, 1]), encodes };
  };
  return { withKept: run(clean), without: run() };
}

describe('the attacker with a kept clean release', () => {
  it('gives the values of encoding every probe, encoding only the profiles not known whole (both RAPPOR variants)', () => {
    const vectors = clusteredVectors({ users: 150, n: 60, clusters: 6, seed: 'attack-kept' });
    for (const name of ['rappor', 'rappor-vector']) {
      const { withKept, without } = attackBoth(vectors, name);
      expect(withKept.values).toEqual(without.values);
      expect(without.encodes).toBe(2);
      expect(withKept.encodes).toBe(1);
      expect(withKept.values[1]!.reid1).toBeGreaterThan(0);
    }
  });

  it('encodes the probes again where a stored zero makes the whole profile another row', () => {
    const vectors = clusteredVectors({ users: 150, n: 60, clusters: 6, seed: 'attack-kept-zero' });
    const values = Float64Array.from(vectors.values);
    values[vectors.rowPtr[3]!] = 0;
    const withZero = { ...vectors, values };
    const { withKept, without } = attackBoth(withZero, 'rappor-vector');
    expect(withKept.values).toEqual(without.values);
    expect(withKept.encodes).toBe(2);
  });
});
