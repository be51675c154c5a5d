/**
 * The built-in mechanisms' own algorithm versions (Mechanism.algorithm), in one place so that a
 * run can check whether its outputs are current without loading the mechanisms. Bump a
 * mechanism's entry when a change alters its numbers: its stored results are recomputed, the
 * others' reused. Mechanisms without an entry have had one algorithm.
 * - laplsh, vmf, purkayastha 2: the projected samplers use the Cholesky plane factor (was U·S of
 *   the thin SVD); 3: their κ normals per user come from the ziggurat over xoshiro128++ (was the
 *   polar method over seedrandom).
 */
export const MECHANISM_ALGORITHMS: Readonly<Record<string, string>> = { laplsh: '3', vmf: '3', purkayastha: '3' };
