import type { CodeSet } from '../lsh/codes.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism, MechanismContext } from './types.js';
import { packSigns } from '../lsh/codes.js';
import { wasmNormals, wasmProjectDense } from '../kernels/releases.js';
import { fillZigguratNormals } from '../random/ziggurat.js';

/**
 * Fill `out` with standard normals from a xoshiro128++ state (src/random/ziggurat.ts): in the
 * WebAssembly kernel, else by its JavaScript twin (the same doubles). The projected samplers draw
 * their κ normals per user this way, a chunk of users at a time.
 */
export function fillFastNormals(state: Int32Array, out: Float64Array): void {
  if (!wasmNormals(state, out)) fillZigguratNormals(state, out);
}

/** The clean LSH codes of a trial: the shared ones when the trial computed them, else packed now. */
export function cleanCodes(hashing: TrialHashing): CodeSet {
  const users = hashing.projections.length / hashing.kappa;
  return hashing.codes ?? packSigns(hashing.projections, users, hashing.kappa);
}

export function userCount(ctx: MechanismContext): number {
  return ctx.vectors.rowPtr.length - 1;
}

/** The EpsilonInfo of mechanisms without a privacy parameter (exact, lsh). */
export const NO_EPSILON: EpsilonInfo = Object.freeze({ epsilon: null, ldpEpsilon: null, fallback: false });

/** The rows × cols matrix `a` (row-major) transposed: cols × rows, as the kernel's products read it. */
export function transposed(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c]!;
  return t;
}

/**
 * out (m × rows) = A · v_t for m dense vectors v_t (m × cols, row-major): in the WebAssembly
 * kernel, else in the JS loop; the same doubles (Σ_c A[r][c] · v[c] in c order from 0). `aT` is
 * transposed(A).
 */
export function denseProducts(a: Float64Array, aT: Float64Array, rows: number, cols: number, vs: Float64Array, m: number, out: Float64Array): void {
  if (wasmProjectDense(aT, vs, m, rows, cols, out)) return;
  for (let t = 0; t < m; t++) {
    for (let r = 0; r < rows; r++) {
      let s = 0;
      for (let c = 0; c < cols; c++) s += a[r * cols + c]! * vs[t * cols + c]!;
      out[t * rows + r] = s;
    }
  }
}

/** Users per chunk of the direct samplers' projections (their dense draws, chunk × n doubles). */
const DIRECT_CHUNK = 256;

/**
 * W v_i of every user for the direct samplers (n ≤ κ + 1, draws in R^n): `drawUser(i, v)` writes
 * user i's v (length n), in user order, so the random stream is the one a user-by-user loop reads;
 * the κ × n products of each chunk go through denseProducts. Returns `out` (users × κ).
 */
export function projectDirectDraws(hashing: TrialHashing, users: number, out: Float64Array, drawUser: (i: number, v: Float64Array<ArrayBuffer>) => void): Float64Array {
  const { kappa, n, planes } = hashing;
  const chunk = Math.max(1, Math.min(users, DIRECT_CHUNK));
  const vs = new Float64Array(chunk * n);
  const planesT = transposed(planes, kappa, n);
  for (let start = 0; start < users; start += chunk) {
    const m = Math.min(chunk, users - start);
    for (let t = 0; t < m; t++) drawUser(start + t, vs.subarray(t * n, (t + 1) * n));
    denseProducts(planes, planesT, kappa, n, vs, m, out.subarray(start * kappa, (start + m) * kappa));
  }
  return out;
}

/** A plugin's EpsilonInfo carries its raw answer, which its `encode` reads (src/mechanisms/plugin.ts). */
type WithPlugin = EpsilonInfo & { plugin?: Record<string, unknown> };

/**
 * The accounting `eps` with every ε a release reads multiplied by `factor` (Infinity: the clean
 * release): the mechanism's own ε and its LDP ε and, for a plugin, the `epsilon_bit` and
 * `epsilon_ldp` its `encode` receives. Other keys are kept. A plugin whose encode reads neither
 * cannot be inflated this way: its release does not change, which the audit then reports.
 */
export function scaledEps(eps: EpsilonInfo, factor: number): EpsilonInfo {
  const scale = (e: unknown): unknown => (typeof e !== 'number' ? e : factor === Infinity ? Infinity : e * factor);
  const out: WithPlugin = { ...eps, epsilon: scale(eps.epsilon) as number | null, ldpEpsilon: scale(eps.ldpEpsilon) as number | null };
  const plugin = (eps as WithPlugin).plugin;
  if (plugin) {
    out.plugin = { ...plugin };
    for (const key of ['epsilon_bit', 'epsilon_ldp']) if (key in plugin) out.plugin[key] = scale(plugin[key]);
  }
  return out;
}

/** The accounting `eps` of mechanism `m` at `factor` × its ε: its own `inflate` where it declares
 *  one (Mechanism.inflate), else scaledEps. */
export function epsAt(m: Pick<Mechanism, 'inflate'>, eps: EpsilonInfo, factor: number): EpsilonInfo {
  return m.inflate ? m.inflate(eps, factor) : scaledEps(eps, factor);
}
