/**
 * The directional-privacy mechanisms of Weggenmann & Kerschbaum (CCS 2021) as LSH baselines: each
 * user releases the LSH code of z, a draw on the unit sphere around its unit vector x:
 * - `vmf`: von Mises–Fisher, density ∝ exp(c·x·z), c = ξ / d_euc(d) (Euclidean-metric privacy);
 * - `purkayastha`: density ∝ exp(−c·θ(x, z)), c = ξ / (π·d) (angular-metric privacy).
 * Both are δ = 0 for every pair and every hash function: "equal ξ" is the paper's LapLSH sense
 * (the loss between inputs at distance d is at most ξ), while LSHRR's guarantee is probabilistic
 * and averaged over the hash seeds (docs/MECHANISMS.md).
 *
 * z = w·x + √(1 − w²)·v, w the cosine (src/random/directional.ts) and v uniform on the sphere
 * orthogonal to x. Only the κ projections W z are needed (sampler `projected`, the default):
 * with the trial's plane factor W = L Qᵀ (L lower triangular, Q with orthonormal columns; shared
 * with LapLSH, planeFactor) and g ~ N(0, I_n), v = Pg/‖Pg‖ (P = I − x xᵀ). Split g into its
 * row-space coordinates a = Qᵀg ~ N(0, I_κ) and the rest g⊥; with p = Qᵀx = L⁻¹ Wx (from the
 * clean projections) and x⊥ = x − Q p (‖x⊥‖² = 1 − ‖p‖²): x·g = p·a + ‖x⊥‖·η and
 * ‖g‖² = ‖a‖² + η² + χ²_{n−κ−1}, η ~ N(0, 1) and the chi-square independent of a. Then
 * W P g = L·a − Wx·(x·g) and ‖Pg‖² = ‖g‖² − (x·g)²: O(κ²) per user after the trial's shared
 * factorization, exactly in distribution. Where the row space leaves no room (n ≤ κ + 1) the
 * direct sampler draws v in R^n. The hyperplanes are the trial's, as for LSH and LSHRR.
 *
 * Everything but the cosine w is drawn once per trial and shared by its ξ (common random
 * numbers, MechanismContext.perTrial); w is drawn per ξ. Given w the orthogonal part is uniform
 * whatever w is, so each ξ's draw has exactly its law; results at different ξ are correlated,
 * trials independent.
 */
import { createRequire } from 'node:module';
import type { Mechanism, MechanismContext } from '../types.js';
import type { EpsilonInfo } from '../../privacy/types.js';
import type { Rng } from '../../random/rng.js';
import { checkOptionKeys, samplerOption } from '../options.js';
import { cleanCodes, denseProducts, fillFastNormals, projectDirectDraws, transposed, userCount } from '../common.js';
import { zigguratState } from '../../random/ziggurat.js';
import type { MechanismFacts } from '../types.js';
import { PURKAYASTHA_FACTS, VMF_FACTS } from './facts.js';
import { cachedPlaneFactor } from '../laplsh/mechanism.js';
import { packCombinedSigns, type CodeSet } from '../../lsh/codes.js';
import { freshFloat64, type Float64Alloc } from '../../util/bufferPool.js';
import { wasmLaplaceNoise } from '../../kernels/releases.js';
import { chiSquareSource } from '../../random/samplers.js';
import { directionAround, purkayasthaAngleSource, vmfCosineSource } from '../../random/directional.js';
import { purkayasthaConcentration, vmfConcentration } from '../../privacy/epsilon.js';

/** The cosine w = x·z of one draw, for concentration c on S^{n−1}. */
type CosineSource = (rng: Rng, n: number, c: number) => () => number;

const require = createRequire(import.meta.url);

/** L⁻¹ of each trial's plane factor, computed once for all users and ξ. */
const inverses = new WeakMap<Float64Array, Float64Array>();
function factorInverse(us: Float64Array, kappa: number): Float64Array {
  let inv = inverses.get(us);
  if (!inv) {
    const { Matrix, inverse } = require('ml-matrix') as typeof import('ml-matrix');
    const rows = Array.from({ length: kappa }, (_, a) => Array.from(us.subarray(a * kappa, (a + 1) * kappa)));
    const m = inverse(new Matrix(rows));
    inv = new Float64Array(kappa * kappa);
    for (let a = 0; a < kappa; a++) for (let b = 0; b < kappa; b++) inv[a * kappa + b] = m.get(a, b);
    inverses.set(us, inv);
  }
  return inv;
}

/** p = Qᵀx = L⁻¹Wx of every user and ‖p‖², once per trial (shared by every ξ and both mechanisms).
 *  The κ × κ products go by chunks of users through denseProducts (the JS loop's doubles). */
const rowSpaceParts = new WeakMap<Float64Array, { p: Float64Array; p2: Float64Array }>();
function rowSpacePart(projections: Float64Array, inv: Float64Array, users: number, kappa: number, alloc: Float64Alloc): { p: Float64Array; p2: Float64Array } {
  let parts = rowSpaceParts.get(projections);
  if (!parts) {
    const p = alloc(users * kappa);
    const p2 = new Float64Array(users);
    const invT = transposed(inv, kappa, kappa);
    for (let start = 0; start < users; start += CHUNK) {
      const m = Math.min(CHUNK, users - start);
      denseProducts(inv, invT, kappa, kappa, projections.subarray(start * kappa, (start + m) * kappa), m, p.subarray(start * kappa, (start + m) * kappa));
    }
    for (let i = 0; i < users; i++) {
      let sum = 0;
      for (let r = 0; r < kappa; r++) sum += p[i * kappa + r]! * p[i * kappa + r]!;
      p2[i] = sum;
    }
    parts = { p, p2 };
    rowSpaceParts.set(projections, parts);
  }
  return parts;
}

/** Users per chunk of the projected sampler (as LapLSH's). */
const CHUNK = 4096;

/**
 * The part of every user's draw that does not depend on the concentration, shared by the ξ of a
 * trial (MechanismContext.perTrial). Projected: ortho = L·a (so W P g = ortho − Wx·xg), xg = x·g
 * and pg2 = ‖Pg‖²; the draw at cosine w is Wz = (w − s·xg)·Wx + s·ortho, s = √(1 − w²)/‖Pg‖
 * (`codesAt`). Direct: ortho = W v with v = Pg/‖Pg‖ itself, xg = 0 and pg2 = 1.
 */
export interface OrthogonalDraws {
  /** users × κ, row-major */
  ortho: Float64Array;
  xg: Float64Array;
  pg2: Float64Array;
}

/**
 * The orthogonal parts through the κ projections (see above): W P g = L·a − Wx·(x·g), and the
 * −Wx·(x·g) term is folded into `codesAt`'s coefficient of Wx, so ortho = L·a. The draws go
 * user by user; the κ × κ products of a chunk run in LapLSH's WebAssembly kernel (the same doubles
 * as the JS loop).
 */
function projectedOrthogonal(rng: Rng, ctx: MechanismContext, alloc: Float64Alloc): OrthogonalDraws {
  const { kappa, n, planes, projections } = ctx.hashing;
  const users = userCount(ctx);
  const us = cachedPlaneFactor(planes, kappa, n);
  const { p, p2 } = rowSpacePart(projections, factorInverse(us, kappa), users, kappa, alloc);
  const rest = chiSquareSource(rng, n - kappa - 1);
  // the κ + 1 normals per user (a and η) from the fast generator
  const normals = zigguratState(rng);
  const usT = transposed(us, kappa, kappa);
  // zero-filled: the kernel adds into it
  const ortho = alloc(users * kappa);
  const xgs = new Float64Array(users);
  const pg2s = new Float64Array(users);
  const chunk = Math.min(users, CHUNK);
  const ws = new Float64Array(chunk * kappa);
  const ones = new Float64Array(chunk).fill(1);
  const etas = new Float64Array(chunk);
  for (let start = 0; start < users; start += chunk) {
    const m = Math.min(chunk, users - start);
    fillFastNormals(normals, ws.subarray(0, m * kappa));
    fillFastNormals(normals, etas.subarray(0, m));
    for (let t = 0; t < m; t++) {
      const i = start + t;
      const base = i * kappa;
      const at = t * kappa;
      let pa = 0;
      let a2 = 0;
      for (let r = 0; r < kappa; r++) {
        pa += p[base + r]! * ws[at + r]!;
        a2 += ws[at + r]! * ws[at + r]!;
      }
      const eta = etas[t]!;
      // rounding can push ‖p‖² above 1 for x (nearly) in the row space
      const xg = pa + Math.sqrt(Math.max(0, 1 - p2[i]!)) * eta;
      xgs[i] = xg;
      pg2s[i] = a2 + eta * eta + rest() - xg * xg;
    }
    const part = ortho.subarray(start * kappa, (start + m) * kappa);
    if (wasmLaplaceNoise(usT, ws, ones, m, kappa, part, true)) continue;
    for (let t = 0; t < m; t++) {
      const base = t * kappa;
      for (let r = 0; r < kappa; r++) {
        let s = 0;
        // the factor is lower triangular: b > r adds nothing
        for (let b = 0; b <= r; b++) s += us[r * kappa + b]! * ws[base + b]!;
        part[base + r] = part[base + r]! + s;
      }
    }
  }
  return { ortho, xg: xgs, pg2: pg2s };
}

/** The orthogonal parts drawn in R^n: W v, v uniform on the sphere orthogonal to x (dense x from the sparse row). */
function directOrthogonal(rng: Rng, ctx: MechanismContext, alloc: Float64Alloc): OrthogonalDraws {
  const { n } = ctx.hashing;
  const { rowPtr, colIdx, values } = ctx.vectors;
  const users = userCount(ctx);
  const x = new Float64Array(n);
  const ortho = projectDirectDraws(ctx.hashing, users, alloc(users * ctx.hashing.kappa), (i, v) => {
    x.fill(0);
    for (let e = rowPtr[i]!; e < rowPtr[i + 1]!; e++) x[colIdx[e]!] = values[e]!;
    // at cosine 0 the draw is v itself
    directionAround(rng, x, 0, v);
  });
  return { ortho, xg: new Float64Array(users), pg2: new Float64Array(users).fill(1) };
}

/** The codes of W z at the cosines `cosine()` draws (user by user), from the shared orthogonal parts. */
export function codesAt(projections: Float64Array, draws: OrthogonalDraws, kappa: number, cosine: () => number): CodeSet {
  const { ortho, xg, pg2 } = draws;
  const users = xg.length;
  const along = new Float64Array(users);
  const scale = new Float64Array(users);
  for (let i = 0; i < users; i++) {
    const w = cosine();
    const q = pg2[i]!;
    const s = q > 0 ? Math.sqrt(Math.max(0, 1 - w * w) / q) : 0;
    scale[i] = s;
    along[i] = w - s * xg[i]!;
  }
  return packCombinedSigns(projections, along, ortho, scale, kappa);
}

function directional(facts: MechanismFacts, account: (xi: number, privacy: { d: number; delta: number }) => EpsilonInfo, source: CosineSource, angleLogDensity: AngleLogDensity): Mechanism {
  const name = facts.name;
  return {
    ...facts,
    angleLogDensity,
    epsilon: (xi, _kappa, privacy) => account(xi, privacy),
    encode(ctx, eps) {
      checkOptionKeys(name, ctx.options, facts.optionKeys ?? []);
      const s = samplerOption(name, ctx.options);
      const c = eps.epsilon;
      if (c === null || !(c >= 0)) throw new RangeError(`${name} needs a concentration >= 0, got ${c}`);
      // the limit c → ∞ is z = x: the clean codes
      if (c === Infinity) {
        const clean = cleanCodes(ctx.hashing);
        return { codes: clean.codes.slice(), bits: clean.bits, words: clean.words };
      }
      const { kappa, n } = ctx.hashing;
      // the orthogonal parts are the trial's, shared by every ξ (MechanismContext.perTrial); the
      // cosines are this ξ's
      const projected = s === 'projected' && n > kappa + 1;
      const draw = (rng: Rng, alloc: Float64Alloc = freshFloat64) => (projected ? projectedOrthogonal : directOrthogonal)(rng, ctx, alloc);
      const draws = ctx.perTrial ? ctx.perTrial(projected ? 'projected' : 'direct', draw) : draw(ctx.rng);
      return codesAt(ctx.hashing.projections, draws, kappa, source(ctx.rng, n, c));
    },
  };
}

/** ln density of the angle θ to the input, up to a constant: the surface element sin^{n−2}θ times the
 *  mechanism's own factor (VMF: e^{c·cos θ}; Purkayastha: e^{−c·θ}). */
type AngleLogDensity = (theta: number, n: number, c: number) => number;
const sphereLogElement = (theta: number, n: number) => (n - 2) * Math.log(Math.sin(theta));

export const vmfMechanism: Mechanism = directional(VMF_FACTS, vmfConcentration, vmfCosineSource, (t, n, c) => c * Math.cos(t) + sphereLogElement(t, n));

/** The Purkayastha angle θ drawn, its cosine released: the mechanisms share everything else. */
const purkayasthaCosine: CosineSource = (rng, n, c) => {
  const angle = purkayasthaAngleSource(rng, n, c);
  return () => Math.cos(angle());
};
export const purkayasthaMechanism: Mechanism = directional(PURKAYASTHA_FACTS, purkayasthaConcentration, purkayasthaCosine, (t, n, c) => -c * t + sphereLogElement(t, n));
