/**
 * The linkage attack inside one trial cell (docs/ATTACKS.md): the cell's targets and their partial
 * profiles per `known` are drawn once and shared by every result of the cell; each result's
 * released codes (the ones the cell computes for its k-NN, same seeds) are ranked against the
 * probes of the partial profiles.
 *
 * The probe is what the release would be for the partial vector without noise
 * (src/evaluations/clean.ts, as the mechanism's facts and its release's width say, never its name):
 * the clean code of the partial vector under the trial's hash functions (the family's `hash` with
 * the cell's `planes` seed), or, for hash functions drawn from the secret noise (RAPPOR) and for a
 * release of another width, the mechanism's own release of the partial vector at ε = ∞ on a fresh
 * stream of the result's noise seed, whose first draws are its positions (as the audit replays a
 * release's noise).
 */
import type { UserVectors } from '../../data/types.js';
import type { CodeSet } from '../../lsh/codes.js';
import { selectRows, type ReleaseSet } from '../../lsh/releases.js';
import type { LshFamily } from '../../lsh/families/types.js';
import { deriveSeed } from '../../random/rng.js';
import { cleanCodes, type CleanedRelease } from '../clean.js';
import { attackMeans, attackTargets, partialProfiles, subsetSeed, type AttackValue } from './linkage.js';

/** What every cell of a trial shares (made once per trial by the thread): the targets and their partial profiles per `known`. */
export interface TrialProfiles {
  /** the targets of the trial at most `max` of them (the `attack-targets` seed) */
  targets(max: number): Int32Array;
  /** the partial profiles of `targets` at `known` (the `attack` seed) */
  profiles(targets: Int32Array, known: number): UserVectors;
}

/**
 * The targets and partial profiles of a (data set, n, trial): the cells of that trial at every κ,
 * and every mechanism, attack the same ones (their seeds have no κ), so they are drawn once per
 * trial in a thread. Only a cache: the rows are the same drawn again.
 */
export function trialProfiles(vectors: UserVectors, at: { runSeed: number | string; dataset: string; n: number; trial: number }): TrialProfiles {
  const users = vectors.rowPtr.length - 1;
  const { runSeed, dataset, n, trial } = at;
  const targetsByMax = new Map<number, Int32Array>();
  const rows = new Map<string, UserVectors>();
  return {
    targets(max) {
      const key = Math.min(max, users);
      let t = targetsByMax.get(key);
      if (!t) {
        t = attackTargets(users, max, runSeed, dataset, n, trial);
        targetsByMax.set(key, t);
      }
      return t;
    },
    profiles(targets, known) {
      const key = `${targets.length}|${known}`;
      let r = rows.get(key);
      if (!r) {
        r = partialProfiles(vectors, targets, known, (user) => subsetSeed(runSeed, dataset, n, trial, known, user));
        rows.set(key, r);
      }
      return r;
    },
  };
}

/** What one result's attack needs: what its clean release is made from, and its release. */
export interface AttackedRelease extends CleanedRelease {
  codes: ReleaseSet;
  /** the clean release of the cell's vectors when the mechanism kept it (Release.clean) */
  clean?: ReleaseSet;
}

/** Whether row r of `partial` is row targets[r] of `vectors`, entry for entry, for every target (a profile known whole). */
function wholeRows(vectors: UserVectors, partial: UserVectors, targets: Int32Array): boolean {
  for (let r = 0; r < targets.length; r++) {
    const from = vectors.rowPtr[targets[r]!]!;
    const to = vectors.rowPtr[targets[r]! + 1]!;
    const at = partial.rowPtr[r]!;
    if (partial.rowPtr[r + 1]! - at !== to - from) return false;
    for (let p = from; p < to; p++) if (partial.colIdx[at + p - from] !== vectors.colIdx[p] || !Object.is(partial.values[at + p - from], vectors.values[p])) return false;
  }
  return true;
}

/** The attacker of one trial cell: call it with a result's release and the `known` values to attack it at. */
export type CellAttacker = (release: AttackedRelease, known: readonly number[]) => AttackValue[];

/**
 * The attacker of one trial cell (data set, n, κ, trial) with at most `maxTargets` targets: the
 * partial profiles of the trial hashed once per `known` with the cell's hash functions, shared by
 * every result of the cell.
 */
export function cellAttacker(
  vectors: UserVectors,
  cell: { runSeed: number | string; dataset: string; n: number; kappa: number; trial: number },
  maxTargets: number,
  family: LshFamily,
  trialSetup: TrialProfiles,
): CellAttacker {
  const users = vectors.rowPtr.length - 1;
  const { runSeed, dataset, n, trial, kappa } = cell;
  const targets = trialSetup.targets(maxTargets);
  const planesSeed = deriveSeed(runSeed, 'planes', dataset, n, kappa, trial);
  const partials = new Map<number, { vectors: UserVectors; clean: CodeSet; hashing: ReturnType<LshFamily['hash']>; whole: boolean }>();
  const partialAt = (known: number) => {
    let p = partials.get(known);
    if (!p) {
      const rows = trialSetup.profiles(targets, known);
      const hashing = family.hash(rows, kappa, planesSeed);
      p = { vectors: rows, clean: hashing.codes, hashing, whole: wholeRows(vectors, rows, targets) };
      partials.set(known, p);
    }
    return p;
  };
  return (release, known) =>
    known.map((k) => {
      const p = partialAt(k);
      // profiles known whole (known = 1, no stored zero): the targets' rows of the clean release the
      // mechanism kept, each row its user's alone (MechanismContext.keepClean), so not encoded again
      const probes = release.clean && p.whole ? selectRows(release.clean, targets) : cleanCodes(release, release.codes, p.vectors, p.hashing);
      const { reid1, reid10 } = attackMeans(release.codes, probes, targets);
      return { known: k, reid1, reid10, users, targets: targets.length };
    });
}
