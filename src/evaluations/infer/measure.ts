/**
 * Attribute inference's measurement (src/evaluations/measure.ts; the attack in
 * src/evaluations/infer/inference.ts, stated in docs/ATTACKS.md): the trial's permutation, its
 * auxiliary groups, targets and `prior` values are its setup (shared by the cells of every κ and
 * every mechanism of the trial); a cell hashes every user once with its public hash functions (the
 * auxiliary users' clean codes, as the linkage attack's probes) and draws the `null` codes once
 * per aux; each result's released codes are then attacked per aux. Its values live in a store
 * folder of their own (src/evaluations/infer/store.ts).
 */
import type { ItemSets } from '../../data/types.js';
import type { CodeSet } from '../../lsh/codes.js';
import { emptyCodes } from '../../lsh/codes.js';
import type { LshFamily } from '../../lsh/families/types.js';
import { tieSeed } from '../../lsh/tieKey.js';
import { deriveSeed, makeRng } from '../../random/rng.js';
import type { GroupData, MeasureCell, Measurement, TrialPlace } from '../measure.js';
import { cleanCodes } from '../clean.js';
import { UserError } from '../../util/errors.js';
import { INFER_FACTS } from './facts.js';
import { inferGroups, inferMeans, inferPermutation, popularity, priorMeans, priorOrder, type InferMeans } from './inference.js';
import { auxView, type AuxView } from './ranking.js';

/** What the attack is asked of a result: the aux shares, the voters k and at most how many targets. */
export interface InferAsk {
  aux: number[];
  k: number;
  targets: number;
}

/** One aux share's means: the result's, and the trial's baselines (`prior`: no code; `null`: a random code per target). */
export interface InferAuxValue {
  aux: number;
  means: InferMeans;
  prior: InferMeans;
  null: InferMeans;
}

/** A result's values: one per aux share asked, with the k they were computed for. */
export interface InferValue {
  k: number;
  byAux: InferAuxValue[];
}

/** A trial's groups per (aux, targets), each with its `prior` means: made once per trial. */
export interface InferSetup {
  groups(aux: number, maxTargets: number): InferGroup;
}

/** One aux share's group and targets, their prior view (src/evaluations/infer/ranking.ts) and the `prior` means. */
interface InferGroup {
  aux: Int32Array;
  targets: Int32Array;
  view: AuxView;
  prior: InferMeans;
}

function inferSetup(data: GroupData, at: TrialPlace): InferSetup {
  const items = itemsOf(data);
  const users = data.vectors.rowPtr.length - 1;
  let perm: Int32Array | null = null;
  const made = new Map<string, InferGroup>();
  return {
    groups(aux, maxTargets) {
      const key = `${aux}|${maxTargets}`;
      let g = made.get(key);
      if (!g) {
        perm ??= inferPermutation(users, at.runSeed, at.dataset, at.n, at.trial);
        const { aux: group, targets } = inferGroups(perm, aux, maxTargets, at);
        const prior = priorOrder(popularity(items, group));
        g = { aux: group, targets, view: auxView(items, prior, targets), prior: priorMeans(items, group, targets, prior) };
        made.set(key, g);
      }
      return g;
    },
  };
}

function itemsOf(data: GroupData): ItemSets {
  if (!data.items) throw new RangeError(`data set "${data.vectors.dataset}" at n=${data.vectors.n} was loaded without its item sets`);
  return data.items;
}

interface InferState {
  cell: MeasureCell;
  setup: () => InferSetup;
  /** the cell's hashing of every user (public hash functions), made at the first result */
  hashing?: ReturnType<LshFamily['hash']>;
  /** per aux: the null baseline's means */
  nulls: Map<number, InferMeans>;
  out: Map<string, InferValue>;
}

/** κ uniformly random bits per target (the `infer-null` seed of the cell): a code that says nothing. */
export function nullCodes(targets: number, kappa: number, seed: string): CodeSet {
  const set = emptyCodes(targets, kappa);
  const rng = makeRng(seed);
  const rest = kappa % 32;
  for (let t = 0; t < targets; t++) {
    for (let w = 0; w < set.words; w++) {
      const word = Math.floor(rng() * 0x100000000) >>> 0;
      set.codes[t * set.words + w] = w === set.words - 1 && rest !== 0 ? word & ((1 << rest) - 1) : word;
    }
  }
  return set;
}

export const INFER_MEASURE: Measurement<InferAsk, InferState, InferValue, InferSetup> = {
  trialSetup: inferSetup,
  begin: (cell, setup) => ({ cell, setup, nulls: new Map(), out: new Map() }),
  take(state, release, asked) {
    if (asked.aux.length === 0) return;
    const { cell } = state;
    const items = itemsOf(cell);
    state.hashing ??= cell.family.hash(cell.vectors, cell.kappa, deriveSeed(cell.runSeed, 'planes', cell.dataset, cell.n, cell.kappa, cell.trial));
    const hashing = state.hashing;
    const ties = tieSeed(cell.runSeed, cell.dataset, cell.n, cell.kappa, cell.trial);
    // the auxiliary users' clean codes: the family's hash, or the release's own encoding at ε = ∞
    // (hash functions drawn from the noise, RAPPOR; a release of another width)
    const clean = release.clean ?? cleanCodes(release, release.codes, cell.vectors, hashing);
    const byAux = asked.aux.map((aux): InferAuxValue => {
      const g = state.setup().groups(aux, asked.targets);
      // a trial whose targets all hold no item or every item has nothing to guess: say so, not NaN
      if (g.prior.targets === 0)
        throw new UserError(
          `${INFER_FACTS.block}: no target of data set "${cell.dataset}" at n=${cell.n} (trial ${cell.trial}, aux ${aux}) holds some but not all of the n items; attribute inference has nothing to guess there (a larger n, or a larger share of targets: a smaller aux)`,
        );
      const means = inferMeans({ sets: items, released: release.codes, clean, aux: g.aux, targets: g.targets, k: asked.k, tieSeed: ties, view: g.view });
      let nul = state.nulls.get(aux);
      if (!nul) {
        const codes = nullCodes(g.targets.length, hashing.codes.bits, deriveSeed(cell.runSeed, 'infer-null', cell.dataset, cell.n, cell.kappa, cell.trial, aux));
        nul = inferMeans({ sets: items, released: codes, clean: hashing.codes, aux: g.aux, targets: g.targets, k: asked.k, tieSeed: ties, row: (_t, i) => i, view: g.view });
        state.nulls.set(aux, nul);
      }
      return { aux, means, prior: g.prior, null: nul };
    });
    state.out.set(release.id, { k: asked.k, byAux });
  },
  finish: ({ out }) => out,
};
