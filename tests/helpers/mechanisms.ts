/** Fixtures of the mechanism tests: a trial's hashing of given vectors, and noisy copies of inputs. */
import type { UserVectors } from '../../src/data/types.js';
import { packSigns } from '../../src/lsh/codes.js';
import { drawHyperplanes, projectAll, type TrialHashing } from '../../src/lsh/hyperplanes.js';
import { makeRng } from '../../src/random/rng.js';
import { vectorsFromDense } from '../lsh/synthetic.js';

/** The hashing of one trial: hyperplanes from `seed`, the clean projections and codes. */
export function hashingFor(vectors: UserVectors, kappa: number, seed: string): TrialHashing {
  const planes = drawHyperplanes(makeRng(seed), kappa, vectors.n);
  const projections = projectAll(vectors, planes, kappa);
  return { kappa, n: vectors.n, planes, projections, codes: packSigns(projections, vectors.rowPtr.length - 1, kappa) };
}

/** `copies` users of each given dense vector: every copy gets independent noise, i.e. one sample. */
export function replicated(rows: number[][], copies: number): UserVectors {
  const all: number[][] = [];
  for (const r of rows) for (let c = 0; c < copies; c++) all.push(r);
  return vectorsFromDense(all);
}
