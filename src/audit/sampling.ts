/**
 * The audit's samples: hashings of a pair and the distinguishing statistic of one sample.
 *
 * Each sample draws fresh hash seeds (hyperplanes) and fresh mechanism noise and runs the
 * registry's own `encode` on the two-user input. Its positive is the output y of x, its negative
 * the output of x', scored by S = Hamming(y, C(x')) − Hamming(y, C(x)), C the clean code under the
 * same seeds (the mechanism run with ε = ∞ on replayed randomness); with it come H =
 * Hamming(y, C(x)), the statistic of the directional mechanisms' law test, the same for the output
 * of x', and D = Hamming(C(x), C(x')), the bits that carry the privacy loss of a per-bit randomizer.
 */
import type { CodeSet } from '../lsh/codes.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism, MechanismContext } from '../mechanisms/types.js';
import type { UserVectors } from '../data/types.js';
import { drawHyperplanes, projectAll } from '../lsh/hyperplanes.js';
import { packSigns, popcount32 } from '../lsh/codes.js';
import { describeRelease, isBits, type ReleaseSet } from '../lsh/releases.js';
import { deriveSeed, type Rng } from '../random/rng.js';
import type { LshFamily } from '../lsh/families/index.js';
import { UserError } from '../util/errors.js';
import { epsAt } from '../mechanisms/common.js';

/** Hamming distance between row a of one code set and row b of another (same bit length). */
export function hammingBetween(x: CodeSet, a: number, y: CodeSet, b: number): number {
  let d = 0;
  for (let w = 0; w < x.words; w++) d += popcount32(x.codes[a * x.words + w] ^ y.codes[b * y.words + w]);
  return d;
}

/** One hashing (fresh hyperplanes) of a two-user pair. */
export function drawHashing(rng: Rng, vectors: UserVectors, kappa: number): TrialHashing {
  const planes = drawHyperplanes(rng, kappa, vectors.n);
  const projections = projectAll(vectors, planes, kappa);
  return { kappa, n: vectors.n, planes, projections, codes: packSigns(projections, 2, kappa) };
}

/**
 * Draws the hashing of one sample of a pair: angular draws hyperplanes from the stream `rng` (no
 * seed per sample); other families hash with their own `hash` from a per-sample public seed, as a
 * run does per trial.
 */
export type Hasher = (vectors: UserVectors, kappa: number, rng: Rng, key: readonly (string | number)[]) => TrialHashing;

export function hasherFor(family: LshFamily, seed: number | string): Hasher {
  if (family.name === 'angular') return (vectors, kappa, rng) => drawHashing(rng, vectors, kappa);
  return (vectors, kappa, _rng, key) => family.hash(vectors, kappa, deriveSeed(seed, 'audit-hash-sample', ...key));
}

/**
 * Whether the clean release may be run on a replay of the release's own noise. It may when the
 * noise the ε = ∞ release uses is public or changes nothing: the built-ins (VMF and Purkayastha at
 * ε = ∞ release x itself; RAPPOR's Bloom hashes are public, as in its deployments) and a plugin that
 * declares `bloomFilter`. A plugin's ε = ∞ release may still be random (OUE keeps the one-hot bit
 * with probability ½ whatever ε): a clean code drawn from the release's own noise would hand the
 * test part of that secret noise, and its ε_lb would be no bound. Such a plugin's clean code is
 * drawn with noise of its own (a valid randomized test).
 */
function replaysNoise(m: Mechanism): boolean {
  return !('plugin' in m) || m.bloomFilter === true;
}

/**
 * The clean release and the release of one sample, through the mechanism's own `encode`: a
 * mechanism whose clean code is the LSH code of the seeds (`cleanIsLshCode`) is compared with the
 * hashing's codes; any other is run at ε = ∞ (its own accounting with every ε made infinite, through
 * the same `encode`: epsAt, the mechanism's `inflate` or scaledEps), on a recording of the noise stream whose replay (same salts and
 * positions), continued by the stream, then draws the release (replaysNoise), or on the stream
 * before the release draws on. `perTrial` (optional) is the sample's MechanismContext.perTrial.
 */
export function releasePair(
  m: Mechanism,
  vectors: UserVectors,
  hashing: TrialHashing,
  rng: Rng,
  options: Record<string, unknown>,
  eps: EpsilonInfo,
  perTrial?: MechanismContext['perTrial'],
): { clean: ReleaseSet; out: ReleaseSet } {
  const ctx = (r: Rng): MechanismContext => ({ vectors, hashing, rng: r, options, ...(perTrial ? { perTrial } : {}) });
  const encode = (r: Rng, e: EpsilonInfo): ReleaseSet => m.encode!(ctx(r), e);
  if (m.cleanIsLshCode) return { clean: hashing.codes!, out: encode(rng, eps) };
  if (!replaysNoise(m)) {
    const clean = encode(rng, epsAt(m, eps, Infinity));
    return { clean, out: encode(rng, eps) };
  }
  const tape: number[] = [];
  const recording: Rng = () => {
    const v = rng();
    tape.push(v);
    return v;
  };
  const clean = encode(recording, epsAt(m, eps, Infinity));
  let at = 0;
  const replay: Rng = () => (at < tape.length ? tape[at++] : rng());
  return { clean, out: encode(replay, eps) };
}

/**
 * The statistics of one sample: [S of the output y of x, S of the output y' of x', H of y, H' =
 * Hamming(y', C(x')), D], from releasePair's clean code C and release. Per-bit flips on the D bits:
 * D − (S − S')/2 of 2D.
 */
export function scoreSample(m: Mechanism, vectors: UserVectors, hashing: TrialHashing, rng: Rng, options: Record<string, unknown>, eps: EpsilonInfo): [number, number, number, number, number] {
  const { clean: c, out: o } = releasePair(m, vectors, hashing, rng, options, eps);
  // this statistic counts bits; releases of symbols or reals are tested on their own laws
  for (const set of [o, c])
    if (!isBits(set))
      throw new UserError(
        `audit: mechanism ${m.name} releases ${describeRelease(set)}; the bit-flip statistics do not apply to it (a release that is not bits is audited through its declared releaseLaw)`,
      );
  const clean = c as CodeSet;
  const out = o as CodeSet;
  if (out.bits !== clean.bits)
    throw new UserError(
      `audit: mechanism ${m.name} released ${out.bits}-bit codes against ${clean.bits}-bit clean codes${m.cleanIsLshCode ? " (it declares cleanIsLshCode: its release must have the LSH code's κ bits)" : ''}`,
    );
  const h0 = hammingBetween(out, 0, clean, 0);
  const h1 = hammingBetween(out, 1, clean, 1);
  return [hammingBetween(out, 0, clean, 1) - h0, h1 - hammingBetween(out, 1, clean, 0), h0, h1, hammingBetween(clean, 0, clean, 1)];
}
