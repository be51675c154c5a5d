import type { UserVectors } from '../data/types.js';
import type { ReleaseSet } from '../lsh/releases.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism } from '../mechanisms/types.js';
import type { LshFamily } from '../lsh/families/types.js';
import type { Rng } from '../random/rng.js';
import { deriveSeed } from '../random/rng.js';
import { epsilonOnFamily } from '../privacy/onFamily.js';
import { UserError } from '../util/errors.js';

/**
 * The public hash seed of a release: the seed of trial 0 of an experiment with run seed `seed` on
 * a data set named `dataset` (src/experiment/trial.ts: deriveSeed(runSeed, 'planes', dataset, n,
 * kappa, trial)), so `lshdp encode --mechanism lsh` releases exactly the codes that experiment hashes.
 */
export function releaseHashSeed(seed: number | string, dataset: string, n: number, kappa: number): string {
  return deriveSeed(seed, 'planes', dataset, n, kappa, 0);
}

/** One release: users' data, the family and its public seed, the mechanism and its budget. */
export interface EncodeRequest {
  /** the users as the family reads them (loadFamilyData / family.prepare) */
  data: UserVectors;
  family: LshFamily;
  kappa: number;
  /** the public hash seed (releaseHashSeed) */
  hashSeed: string;
  mechanism: Mechanism;
  /** the mechanism's options (e.g. { accountant: 'exact' } for lshrr) */
  options?: Record<string, unknown>;
  /** the budget; ignored (null) for mechanisms without one */
  xi: number | null;
  /** d in the family's metric, delta the failure probability */
  privacy: { d: number; delta: number };
  /** the noise source: cryptoRng() for real releases */
  rng: Rng;
}

export interface EncodedUsers {
  /** the released (noisy) rows, one per user of `data`: bits, symbols or reals (the mechanism's `release`) */
  codes: ReleaseSet;
  /** what xi means for the mechanism (per-bit eps, LDP eps, fallback, accountant) */
  eps: EpsilonInfo;
  /** the public hashing (hyperplanes for angular; clean codes) */
  hashing: TrialHashing;
}

/** Hashes every user with the public seed and applies the mechanism with the given noise source. */
export function encodeUsers(req: EncodeRequest): EncodedUsers {
  const { data, family, kappa, mechanism } = req;
  if (mechanism.kind !== 'code' || !mechanism.encode) throw new UserError(`mechanism ${mechanism.name} releases no codes`);
  if (!family.vectorMechanisms && mechanism.noisesVector) throw new UserError(`mechanism ${mechanism.name} needs vectors and cannot run on the ${family.name} family`);
  if (mechanism.metric !== undefined && mechanism.metric !== family.name) throw new UserError(`mechanism ${mechanism.name} runs on the ${mechanism.metric} family only, not ${family.name}`);
  const options = req.options ?? {};
  const xi = mechanism.usesXi ? req.xi : null;
  if (mechanism.usesXi && (xi === null || !(xi >= 0))) throw new UserError(`mechanism ${mechanism.name} needs a budget xi >= 0`);
  const eps = epsilonOnFamily(mechanism, family.disagreement, xi ?? 0, kappa, req.privacy, options);
  const hashing = family.hash(data, kappa, req.hashSeed);
  const codes = mechanism.encode({ vectors: data, hashing, rng: req.rng, options }, eps);
  return { codes, eps, hashing };
}
