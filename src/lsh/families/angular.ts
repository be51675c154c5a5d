import type { LshFamily } from './types.js';
import { makeRng } from '../../random/rng.js';
import { drawHyperplanes, projectAll } from '../hyperplanes.js';
import { packSigns } from '../codes.js';
import { angularDistance, exactKnn } from '../../knn/angular.js';
import { angularDistanceFrom } from '../../knn/angular.js';

/**
 * Random-projection LSH (paper Sect. 3.2, protocol §4): bit j of user x is 1 iff r_j · x >= 0, with
 * r_j ~ N(0, I_n) drawn from `makeRng(seed)`; Pr[bit differs] = θ(x, y)/π = d, the angular distance.
 * Exactly the hashing of the experiments (src/experiment/trial.ts), so codes are identical.
 */
export const angularFamily: LshFamily = {
  name: 'angular',
  description: 'random-projection LSH (sign of r·x, r ~ N(0, I)), angular distance arccos(x·y)/π',
  vectorMechanisms: true,
  dataSpec: (spec) => spec,
  prepare: (vectors) => vectors,
  hash(data, kappa, seed, alloc) {
    const users = data.rowPtr.length - 1;
    const planes = drawHyperplanes(makeRng(seed), kappa, data.n);
    const projections = projectAll(data, planes, kappa, { alloc });
    return { kappa, n: data.n, planes, projections, codes: packSigns(projections, users, kappa) };
  },
  disagreement: (d) => d,
  distance: angularDistance,
  exactKnn,
  distanceFrom: angularDistanceFrom,
};
