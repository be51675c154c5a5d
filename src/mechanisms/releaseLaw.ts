/**
 * The law a mechanism declares for a release that is not bits (Mechanism.releaseLaw): how each
 * released coordinate lies around the clean release (the mechanism's own release at ε = ∞, through
 * its own encode), and which privacy claim the release makes. `lshdp audit` tests it as a
 * hypothesis: it samples (release − clean release) at its pairs, estimates the law's parameter from
 * what was released, and judges the claim at that parameter, not at the declared one
 * (docs/PRIVACY.md "Releases that are not bits").
 */

/**
 * The noise of one released coordinate around the clean release, independent across coordinates,
 * users and samples:
 * - `gaussian`: y = clean + N(0, σ²) (reals);
 * - `laplace`: y = clean + Laplace(0, scale) (reals; density e^{−|t|/scale}/(2·scale));
 * - `bary-rr`: b-ary randomized response (symbols of an alphabet of `alphabet` letters): the clean
 *   symbol kept with probability `keep`, else each of the other alphabet − 1 symbols with
 *   probability (1 − keep)/(alphabet − 1). State the keep probability the sampler realizes (e.g.
 *   minhash-bucket: 1 − (b − 1)·realizedOtherProbability(ε′, b)), not the ideal one.
 */
export type ReleaseNoise = { kind: 'gaussian'; sigma: number } | { kind: 'laplace'; scale: number } | { kind: 'bary-rr'; alphabet: number; keep: number };

/**
 * What the release claims, in terms the audit computes the privacy loss of at any parameter of the
 * noise (the audit's own formulas, src/privacy/, not the mechanism's accountant):
 * - `sensitivity` (gaussian): every pair of inputs the claim covers moves the clean release by at
 *   most `sensitivity` (ℓ2) for this hashing, so the loss is N(μ, 2μ), μ = Δ²/(2σ²), and the claim
 *   is Pr[L > ξ] ≤ δ over the noise (gaussianXiForSensitivity);
 * - `jl-expected` (gaussian): the clean release is W·x/‖x‖, W = R/√κ with R the hashing's Gaussian
 *   hyperplanes; for a pair at angular distance d fixed before W is drawn, Pr[L > ξ] ≤ δ over W and
 *   the noise (jlGaussianTail);
 * - `positions` (bary-rr, laplace): each of the κ positions differs between the two inputs'
 *   clean releases with probability `disagreement` independently (over the public hash functions),
 *   only differing positions carry loss, and Pr[L > ξ] ≤ δ over the hash functions and the noise
 *   (bary-rr: the exact trinomial law, bucketExactTail; laplace: the exact law of the sum of the
 *   positions' losses, laplacePositionTail);
 * - `ldp` (bary-rr, laplace): every position's loss is at most ε′ in absolute value for any two
 *   inputs, and κ·ε′ ≤ ξ: pure ξ-LDP.
 */
export type ReleaseClaim = { kind: 'sensitivity'; sensitivity: number } | { kind: 'jl-expected' } | { kind: 'positions'; disagreement: number } | { kind: 'ldp' };

/** A declared release law: the noise of each coordinate around the clean release, and the claim. */
export interface ReleaseLaw {
  noise: ReleaseNoise;
  claim: ReleaseClaim;
}
