/**
 * lshdp's own claims about attribute inference from released codes (config `infer`,
 * docs/ATTACKS.md "Attribute inference"), tested on the per-trial auc (the share of pairs (an item
 * of the target's set, an item not in it) that the adversary's ranking puts in that order, mean
 * over the trial's targets). The leak is read against the `null` baseline (the same attack on a
 * uniformly random code in place of each target's release: what the attack gives when the code
 * says nothing), never against `prior`. Mechanisms are picked by the roles their units declare
 * (grid.ts); the rules, and what each test can and cannot detect, are stated in docs/RESULTS.md.
 */
import type { InferCoordinates, InferTrialValue } from '../experiment/trialValues.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { NULL_BASELINE } from '../evaluations/infer/store.js';
import { directionalCell, distinct, isLsh, pairedSamples, seriesOf } from './grid.js';
import { decide, needs, notTested, type ClaimDefinition, type DatasetContext } from './family.js';
import type { CellTest, FamilyOutcome } from './rule.js';

/** The per-trial auc of one (data set, n, κ, mechanism label, ξ, aux). */
export interface InferSeries extends InferCoordinates {
  /** trial index → auc (mean over the trial's targets) */
  byTrial: Map<number, number>;
}

/** Group per-trial inference values into auc series, in first-seen order. */
export function groupInfer(values: readonly InferTrialValue[]): InferSeries[] {
  return seriesOf(
    values,
    (v) => `${v.dataset}\u0000${v.n}\u0000${v.kappa}\u0000${v.mechanism}\u0000${v.xi}\u0000${v.aux}`,
    (v) => ({ dataset: v.dataset, n: v.n, kappa: v.kappa, mechanism: v.mechanism, base: v.base, accountant: v.accountant, xi: v.xi, aux: v.aux }),
    (v) => v.auc,
  );
}

/** A baseline row of infer.csv (`prior`, `null`): no base mechanism. */
const isBaseline = (s: InferSeries): boolean => s.base === null;

const inferValues = (ctx: DatasetContext) => ctx.valuesOf<InferTrialValue>(INFER_FACTS.name);

const NEEDS_INFER = 'attribute-inference values (config infer)';
const cellKey = (s: InferSeries) => `${s.n}\u0000${s.kappa}\u0000${s.aux}`;
const fmt = (x: number) => String(Number(x.toPrecision(3)));
const mean = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0) / m.size;

// ------------------------------------------------------------------ clean-lsh-leaks-items

function cleanLshLeaks(ctx: DatasetContext) {
  const infer = groupInfer(inferValues(ctx));
  const lsh = infer.filter((s) => s.base !== null && isLsh({ base: s.base }));
  const nulls = new Map(infer.filter((s) => isBaseline(s) && s.mechanism === NULL_BASELINE).map((s) => [cellKey(s), s]));
  const missing = needs([
    [infer.length > 0, NEEDS_INFER],
    [lsh.length > 0, 'an lsh entry'],
    [nulls.size > 0, 'the null baseline'],
  ]);
  if (missing) return notTested(missing);
  const label = new Set(lsh.map((s) => s.mechanism)).size > 1;
  const advantages: number[] = [];
  const cells = lsh.flatMap((s): (CellTest | null)[] => {
    const nul = nulls.get(cellKey(s));
    if (!nul) return [];
    advantages.push(mean(s.byTrial) - mean(nul.byTrial));
    // trial t of lsh and trial t of null attack the same targets from the same auxiliary group: paired
    const where = `n=${s.n} κ=${s.kappa} aux=${s.aux}${label ? ` [${s.mechanism}]` : ''}`;
    return [directionalCell(where, pairedSamples(s.byTrial, nul.byTrial), true, 'above')];
  });
  const notes = advantages.length ? [`mean auc advantage over null ${fmt(Math.min(...advantages))}–${fmt(Math.max(...advantages))}`] : [];
  return decide(
    cells,
    ctx,
    { forWord: 'auc above null', againstWord: 'below', tests: "one-sided paired t-tests over trials against null's auc; Δ = auc − null's auc" },
    'needs an lsh entry and the null baseline at the same n, κ and aux',
    'directional',
    notes,
  );
}

const cleanLshLeaksItems: ClaimDefinition = {
  id: 'clean-lsh-leaks-items',
  statement:
    "lshdp's own (attribute inference, docs/ATTACKS.md): codes released without noise (vanilla LSH) leak a user's items: an adversary who knows an auxiliary group's item sets and the public hash functions, and ranks a target's items by the votes of the k auxiliary users whose clean codes are nearest to the target's released code, ranks them better (auc) than the same attack on a random code (null), at the same n, κ and auxiliary share.",
  evaluation: INFER_FACTS.name,
  angular: false,
  evaluate: cleanLshLeaks,
};

// ------------------------------------------------------------------ inference-rises-with-xi

function risesWithXi(ctx: DatasetContext) {
  const all = inferValues(ctx);
  const infer = groupInfer(all).filter((s) => !isBaseline(s) && s.xi !== null);
  const missing = needs([
    [all.length > 0, NEEDS_INFER],
    [infer.length > 0, 'a mechanism with ξ'],
  ]);
  if (missing) return notTested(missing);
  const cells: (CellTest | null)[] = [];
  const labels = [...new Set(infer.map((s) => s.mechanism))];
  for (const label of labels) {
    const mine = infer.filter((s) => s.mechanism === label);
    const at = (xi: number) => new Map(mine.filter((s) => s.xi === xi).map((s) => [cellKey(s), s]));
    const xis = distinct(mine.map((s) => s.xi));
    for (let i = 0; i + 1 < xis.length; i++) {
      const lower = at(xis[i]);
      for (const [key, high] of at(xis[i + 1])) {
        const low = lower.get(key);
        if (!low) continue;
        // the same trial shares its hash functions, auxiliary group and targets across ξ: paired
        const w = `${label} n=${high.n} κ=${high.kappa} aux=${high.aux} ξ=${xis[i]}→${xis[i + 1]}`;
        cells.push(directionalCell(w, pairedSamples(high.byTrial, low.byTrial), true, 'above', label));
      }
    }
  }
  const perMechanism = (out: FamilyOutcome) =>
    labels.flatMap((label) => {
      const mine = out.cells.filter((c) => c.part === label);
      return mine.length ? [`${label}: rises in ${mine.filter((c) => c.isFor).length} of ${mine.length} steps, falls in ${mine.filter((c) => c.isAgainst).length}`] : [];
    });
  return decide(
    cells,
    ctx,
    { forWord: 'auc rises', againstWord: 'falls', tests: 'one-sided paired t-tests over trials between consecutive ξ' },
    'needs a mechanism with inference values at two ξ with the same n, κ and aux',
    'directional',
    perMechanism,
  );
}

const inferenceRisesWithXi: ClaimDefinition = {
  id: 'inference-rises-with-xi',
  statement:
    "lshdp's own (attribute inference): a larger budget ξ never makes the inference weaker: for each privatized mechanism, no step between consecutive ξ of the grid shows a significant fall of auc (same n, κ and auxiliary share), and some step shows a significant rise.",
  evaluation: INFER_FACTS.name,
  angular: false,
  evaluate: risesWithXi,
};

/** The attribute inference's claims, in report order (`INFER_CLAIM_IDS`). */
export const INFER_CLAIMS: readonly ClaimDefinition[] = [cleanLshLeaksItems, inferenceRisesWithXi];
