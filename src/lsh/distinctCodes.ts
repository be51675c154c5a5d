import type { UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';
import { drawHyperplanes, projectAll } from './hyperplanes.js';
import { packSigns } from './codes.js';

/**
 * How many distinct codes the users' clean LSH codes of one draw of κ hyperplanes hold (at most
 * 2^κ): fewer distinct codes than users means ties in every Hamming k-NN, the work of its tie path.
 * `lshdp data inspect` prints it per n and κ.
 */
export function distinctCodes(vectors: UserVectors, kappa: number, rng: Rng): number {
  const users = vectors.rowPtr.length - 1;
  const { codes, words } = packSigns(projectAll(vectors, drawHyperplanes(rng, kappa, vectors.n), kappa), users, kappa);
  if (words === 1) return new Set(codes).size;
  const seen = new Set<string>();
  for (let i = 0; i < users; i++) seen.add(codes.subarray(i * words, (i + 1) * words).join(','));
  return seen.size;
}
