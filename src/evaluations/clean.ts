/**
 * What a release would be without noise, as the adversaries of the linkage attack and of attribute
 * inference compute it (docs/ATTACKS.md): the family's code under the trial's public hash
 * functions when the release is such a code (lsh, LSHRR, LapLSH, VMF, Purkayastha, most plugins);
 * otherwise the mechanism's own release at ε = ∞ on a fresh stream of the release's noise seed:
 * for hash functions drawn from the noise (`hashesFromNoise`: RAPPOR's Bloom positions and salts,
 * given to the adversary, more than a release shows) and for releases of another width than the
 * family's code (a plugin that encodes the bits again, such as unary encoding). A mechanism whose
 * release stays random at ε = ∞ gives one draw of it: the adversary's guess, not a clean code.
 */
import type { UserVectors } from '../data/types.js';
import type { CodeSet } from '../lsh/codes.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import { makeRng } from '../random/rng.js';

/** The release of a mechanism without noise (as the audit asks for it). */
const CLEAN: EpsilonInfo = Object.freeze({ epsilon: Infinity, ldpEpsilon: Infinity, fallback: false });

/** The clean codes of `vectors` for a release of `bits` bits by `mech` (see above); `hashing` is the family's, with its codes. */
export function cleanCodes(release: { mech: Mechanism; options: Record<string, unknown>; noiseSeed: string }, bits: number, vectors: UserVectors, hashing: TrialHashing & { codes: CodeSet }): CodeSet {
  const { mech } = release;
  if (!mech.hashesFromNoise && hashing.codes.bits === bits) return hashing.codes;
  return mech.encode!({ vectors, hashing, rng: makeRng(release.noiseSeed), options: release.options }, CLEAN);
}
