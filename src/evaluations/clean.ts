/**
 * What a release would be without noise, as the adversaries of the linkage attack and of attribute
 * inference compute it (docs/ATTACKS.md): the family's code under the trial's public hash
 * functions when the release is such a code (lsh, LSHRR, LapLSH, VMF, Purkayastha, most plugins);
 * otherwise the mechanism's own release at ε = ∞ on a fresh stream of the release's noise seed:
 * for hash functions drawn from the noise (`hashesFromNoise`: RAPPOR's Bloom positions and salts,
 * given to the adversary, more than a release shows), for releases of another width than the
 * family's code (a plugin that encodes the bits again, such as unary encoding) and for releases
 * that are not bits (symbols, reals: bucket MinHash's buckets, the JL projection). A mechanism whose
 * release stays random at ε = ∞ gives one draw of it: the adversary's guess, not a clean code.
 */
import type { UserVectors } from '../data/types.js';
import type { CodeSet } from '../lsh/codes.js';
import { isBits, type ReleaseSet } from '../lsh/releases.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import { makeRng } from '../random/rng.js';
import { epsAt } from '../mechanisms/common.js';

/** What the clean release of a result is made from: its mechanism, options, noise seed and what its ξ meant. */
export interface CleanedRelease {
  mech: Mechanism;
  options: Record<string, unknown>;
  noiseSeed: string;
  eps: EpsilonInfo;
}

/** The clean release of `vectors` of the shape of `like` by `mech` (see above); `hashing` is the family's, with its codes. */
export function cleanCodes(release: CleanedRelease, like: ReleaseSet, vectors: UserVectors, hashing: TrialHashing & { codes: CodeSet }): ReleaseSet {
  const { mech } = release;
  if (!mech.hashesFromNoise && isBits(like) && hashing.codes.bits === like.bits) return hashing.codes;
  // the release's own accounting with every ε made infinite, as the audit asks for the clean
  // release (a plugin reads its epsilon_bit, which becomes Infinity too; one that declares
  // `inflate` says itself what its release at Infinity is)
  return mech.encode!({ vectors, hashing, rng: makeRng(release.noiseSeed), options: release.options }, epsAt(mech, release.eps, Infinity));
}
