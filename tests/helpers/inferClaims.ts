/**
 * Constructed per-trial attribute-inference values for the claims: auc per (n, κ, mechanism, ξ,
 * aux, trial), with the `prior` and `null` baselines as infer.csv has them (prior without κ,
 * null per κ, both without base, accountant and ξ), a shared per-(n, κ, aux, trial) effect that
 * paired tests cancel (the trial's targets and auxiliary group) and independent noise, from fixed
 * seeds.
 */
import { datasetContext, evaluateClaims } from '../../src/claims/evaluate.js';
import { INFER_CLAIMS } from '../../src/claims/infer.js';
import type { ClaimResult, ClaimsInput } from '../../src/claims/types.js';
import type { InferTrialValue } from '../../src/experiment/trialValues.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

export interface InferEntry {
  label: string;
  base: string;
  accountant?: string | null;
  /** [null]: one series without ξ (lsh) */
  xis: (number | null)[];
  /** mean auc of a point */
  auc: (p: { n: number; kappa: number; xi: number | null; aux: number }) => number;
  /** per-trial sd of its own noise (default 0.002) */
  noise?: number;
}

export interface InferGrid {
  dims: number[];
  kappa: number[];
  aux: number[];
  trials: number;
  /** mean auc of the null baseline (default 0.66) and of prior (default 0.70) */
  nullAuc?: number;
  priorAuc?: number;
  /** sd of the per-(n, κ, aux, trial) effect every series shares, null included (default 0.02) */
  shared?: number;
  seed?: string;
  entries: InferEntry[];
}

const value = (at: Omit<InferTrialValue, 'prec10' | 'k' | 'targets'>): InferTrialValue => ({ ...at, prec10: at.auc, k: 10, targets: 500 });

/** Inference values of one data set `synth`, baselines first per n as infer.csv orders them. */
export function inferValuesOf(g: InferGrid): InferTrialValue[] {
  const z = normalSource(makeRng(g.seed ?? 'infer-claims'));
  const out: InferTrialValue[] = [];
  for (const n of g.dims) {
    for (const aux of g.aux) {
      for (let trial = 0; trial < g.trials; trial++)
        out.push(value({ dataset: 'synth', n, kappa: null, mechanism: 'prior', base: null, accountant: null, xi: null, aux, trial, auc: (g.priorAuc ?? 0.7) + 0.002 * z() }));
    }
    const shared = new Map<string, number[]>();
    for (const kappa of g.kappa) {
      for (const aux of g.aux) {
        const s = Array.from({ length: g.trials }, () => (g.shared ?? 0.02) * z());
        shared.set(`${kappa}/${aux}`, s);
        for (let trial = 0; trial < g.trials; trial++)
          out.push(value({ dataset: 'synth', n, kappa, mechanism: 'null', base: null, accountant: null, xi: null, aux, trial, auc: (g.nullAuc ?? 0.66) + s[trial] + 0.002 * z() }));
      }
    }
    for (const kappa of g.kappa) {
      for (const e of g.entries) {
        const accountant = e.accountant === undefined ? (e.base === 'lshrr' ? 'paper' : null) : e.accountant;
        for (const xi of e.xis) {
          for (const aux of g.aux) {
            const s = shared.get(`${kappa}/${aux}`)!;
            for (let trial = 0; trial < g.trials; trial++) {
              const auc = e.auc({ n, kappa, xi, aux }) + s[trial] + (e.noise ?? 0.002) * z();
              out.push(value({ dataset: 'synth', n, kappa, mechanism: e.label, base: e.base, accountant, xi, aux, trial, auc }));
            }
          }
        }
      }
    }
  }
  return out;
}

/** A claims input of one data set `synth` whose only evaluation beside utility is `infer`. */
export function inferInputOf(g: InferGrid | InferTrialValue[]): ClaimsInput {
  const infer = Array.isArray(g) ? g : inferValuesOf(g);
  const dims = [...new Set(infer.map((v) => v.n))];
  const config = { datasets: ['synth'], dims, kappa: [20, 50], k: [10], xi: [], d: 0.1, delta: 0.01, trials: 10, queries: 0 };
  return { config, values: [], nn: [], infer };
}

export function inferClaim(input: ClaimsInput, id: string): ClaimResult {
  const r = evaluateClaims(input).find((x) => x.id === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
}

/** One claim alone on data set `synth`, for the many simulated families. */
export function inferOnly(input: ClaimsInput, id: string): Pick<ClaimResult, 'verdict'> {
  const def = INFER_CLAIMS.find((c) => c.id === id)!;
  return def.evaluate(datasetContext(input, 'synth', 0.05));
}

export const lshAt = (auc: InferEntry['auc'], noise?: number): InferEntry => ({ label: 'lsh', base: 'lsh', xis: [null], auc, noise });
export const rrAt = (auc: InferEntry['auc'], xis: number[] = [0, 1, 5, 20]): InferEntry => ({ label: 'lshrr', base: 'lshrr', xis, auc });
export const lapAt = (auc: InferEntry['auc'], xis: number[] = [0, 1, 5, 20]): InferEntry => ({ label: 'laplsh', base: 'laplsh', xis, auc });
/** auc rising by 0.01 per step of the grid's ξ (0, 1, 5, 20) from null's 0.66 */
export const aucRising = ({ xi }: { xi: number | null }) => 0.66 + 0.01 * [0, 1, 5, 20].indexOf(xi!);
