/**
 * The linkage attack inside one trial cell (docs/ATTACKS.md): the cell's targets and their partial
 * profiles per `known` are drawn once and shared by every result of the cell; each result's
 * released codes (the ones the cell computes for its k-NN, same seeds) are ranked against the
 * probes of the partial profiles.
 *
 * The probe is what the release would be for the partial vector without noise, as the mechanism's
 * facts say (never its name):
 * - hash functions public (every mechanism without `hashesFromNoise`: lsh, LSHRR, LapLSH, VMF,
 *   Purkayastha, plugins): the clean code of the partial vector under the trial's hash functions
 *   (the family's `hash` with the cell's `planes` seed, so the same hyperplanes or MinHash tables);
 * - hash functions drawn from the secret noise (`hashesFromNoise`: RAPPOR's Bloom positions and
 *   salts): the adversary is also given them, stronger than what a release shows. The probe is the
 *   mechanism's own release of the partial vector at ε = ∞ on a fresh stream of the result's noise
 *   seed, whose first draws are those positions (as the audit replays a release's noise).
 */
import type { UserVectors } from '../../data/types.js';
import type { CodeSet } from '../../lsh/codes.js';
import type { LshFamily } from '../../lsh/families/types.js';
import type { Mechanism } from '../../mechanisms/types.js';
import type { EpsilonInfo } from '../../privacy/types.js';
import { deriveSeed, makeRng } from '../../random/rng.js';
import { attackMeans, attackTargets, partialProfiles, subsetSeed, type AttackValue } from './linkage.js';

/** The release of a mechanism without noise (as the audit asks for it). */
const CLEAN: EpsilonInfo = Object.freeze({ epsilon: Infinity, ldpEpsilon: Infinity, fallback: false });

export interface CellAttackSpec {
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
  runSeed: number | string;
  /** at most this many targets (config attack.targets) */
  maxTargets: number;
}

/** What one result's attack needs beyond its codes: the mechanism, its options and its noise seed. */
export interface AttackedRelease {
  mech: Mechanism;
  options: Record<string, unknown>;
  noiseSeed: string;
  codes: CodeSet;
}

/** The attacker of one trial cell: call it with a result's release and the `known` values to attack it at. */
export type CellAttacker = (release: AttackedRelease, known: readonly number[]) => AttackValue[];

export function cellAttacker(vectors: UserVectors, spec: CellAttackSpec, family: LshFamily): CellAttacker {
  const users = vectors.rowPtr.length - 1;
  const { runSeed, dataset, n, trial, kappa } = spec;
  const targets = attackTargets(users, spec.maxTargets, runSeed, dataset, n, trial);
  const planesSeed = deriveSeed(runSeed, 'planes', dataset, n, kappa, trial);
  const partials = new Map<number, { vectors: UserVectors; clean: CodeSet; hashing: ReturnType<LshFamily['hash']> }>();
  const partialAt = (known: number) => {
    let p = partials.get(known);
    if (!p) {
      const rows = profilesOf(vectors, targets, { runSeed, dataset, n, trial, known });
      const hashing = family.hash(rows, kappa, planesSeed);
      p = { vectors: rows, clean: hashing.codes, hashing };
      partials.set(known, p);
    }
    return p;
  };
  return (release, known) =>
    known.map((k) => {
      const p = partialAt(k);
      const probes = release.mech.hashesFromNoise ? release.mech.encode!({ vectors: p.vectors, hashing: p.hashing, rng: makeRng(release.noiseSeed), options: release.options }, CLEAN) : p.clean;
      const { reid1, reid10 } = attackMeans(release.codes, probes, targets);
      return { known: k, reid1, reid10, users, targets: targets.length };
    });
}

/**
 * The partial profiles of a (data set, n, trial, known), kept per vectors object: the cells of one
 * trial at other κ draw the same ones (their seeds have no κ), so a thread that runs them one
 * after another draws them once. Only a cache: the rows are the same drawn again.
 */
const profileCache = new WeakMap<UserVectors, Map<string, UserVectors>>();
function profilesOf(vectors: UserVectors, targets: Int32Array, at: { runSeed: number | string; dataset: string; n: number; trial: number; known: number }): UserVectors {
  const { runSeed, dataset, n, trial, known } = at;
  let byKey = profileCache.get(vectors);
  if (!byKey) {
    byKey = new Map();
    profileCache.set(vectors, byKey);
  }
  const key = JSON.stringify([runSeed, dataset, n, trial, known, targets.length]);
  let rows = byKey.get(key);
  if (!rows || rows.rowPtr.length !== targets.length + 1) {
    rows = partialProfiles(vectors, targets, known, (user) => subsetSeed(runSeed, dataset, n, trial, known, user));
    // the trials of a group × their knowns (a cell order interleaves them): older entries go first
    if (byKey.size >= 32) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, rows);
  }
  return rows;
}
