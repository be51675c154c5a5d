/**
 * The built-in mechanisms' own algorithm versions (Mechanism.algorithm), in one place so that a
 * run can check whether its outputs are current without loading the mechanisms. Bump a
 * mechanism's entry when a change alters its numbers: its stored results are recomputed, the
 * others' reused. Mechanisms without an entry have had one algorithm.
 * - laplsh, vmf, purkayastha 2: the projected samplers use the Cholesky plane factor (was U·S of
 *   the thin SVD); 3: their κ normals per user come from the ziggurat over xoshiro128++ (was the
 *   polar method over seedrandom); 4: the draws that do not depend on ξ (LapLSH's directions and
 *   Gamma(n, 1) radii, the directional mechanisms' orthogonal parts) are drawn once per trial and
 *   shared by its ξ (common random numbers; MechanismContext.perTrial).
 * - lshrr 2: exact Bernoulli(T/2^32) flips, 32 bits per word (flipBitsOnGrid), T/2^32 a margin above
 *   1/(1+e^eps) (realizedFlipProbability): the realized per-bit eps is strictly below the
 *   accountant's, never above a jump point (was flipBits' geometric, masked and per-bit paths).
 */
export const MECHANISM_ALGORITHMS: Readonly<Record<string, string>> = { laplsh: '4', vmf: '4', purkayastha: '4', lshrr: '2' };
