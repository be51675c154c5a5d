/**
 * Synthetic per-trial values for the claims' tests: a grid of (n, κ, k, ξ, trial) with a loss given
 * per mechanism entry, plus a common per-(n, κ, trial) effect that paired tests cancel (the shared
 * hyperplanes) and independent noise, all from fixed seeds.
 */
import type { TrialValue, NnDistance } from '../../src/experiment/trialValues.js';
import type { ClaimsConfig, ClaimsInput } from '../../src/claims/types.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

export interface Cell {
  n: number;
  kappa: number;
  k: number;
  xi: number | null;
}

export interface EntrySpec {
  label: string;
  base: string;
  accountant?: string | null;
  /** false: one series without ξ (lsh) */
  usesXi?: boolean;
  /** mean loss in the cell */
  level: (c: Cell) => number;
  /** sd of the entry's own noise (default 0.002) */
  noise?: number;
}

export interface GridSpec {
  dataset?: string;
  dims: number[];
  kappa: number[];
  k: number[];
  xi: number[];
  trials: number;
  entries: EntrySpec[];
  /** sd of the per-(n, κ, trial) effect shared by the entries (default 0.01) */
  shared?: number;
  seed?: string;
}

export function syntheticValues(g: GridSpec): TrialValue[] {
  const dataset = g.dataset ?? 'synth';
  const z = normalSource(makeRng(g.seed ?? 'claims-synthetic'));
  const out: TrialValue[] = [];
  for (const n of g.dims) {
    for (const kappa of g.kappa) {
      const shared = Array.from({ length: g.trials }, () => (g.shared ?? 0.01) * z());
      for (const e of g.entries) {
        for (const k of g.k) {
          for (const xi of e.usesXi === false ? [null] : g.xi) {
            for (let trial = 0; trial < g.trials; trial++) {
              const loss = e.level({ n, kappa, k, xi }) + shared[trial] + (e.noise ?? 0.002) * z();
              out.push({
                dataset,
                n,
                kappa,
                k,
                mechanism: e.label,
                base: e.base,
                accountant: e.accountant === undefined ? (e.base === 'lshrr' ? 'paper' : null) : e.accountant,
                xi,
                trial,
                loss,
                recall: 0,
              });
            }
          }
        }
      }
    }
  }
  return out;
}

export function configOf(g: GridSpec, extra: Partial<ClaimsConfig> = {}): ClaimsConfig {
  return { datasets: [g.dataset ?? 'synth'], dims: g.dims, kappa: g.kappa, k: g.k, xi: g.xi, d: 0.1, delta: 0.01, trials: g.trials, queries: 1000, ...extra };
}

export function inputOf(g: GridSpec, extra: { nn?: NnDistance[]; config?: Partial<ClaimsConfig> } = {}): ClaimsInput {
  return { config: configOf(g, extra.config), values: syntheticValues(g), nn: extra.nn ?? [] };
}

/** 1-NN distances: `below[i]` of `users[i]` users at n = dims[i] below 0.1 (0.05), the rest at 0.3. */
export function nnRows(dataset: string, dims: number[], users: number[], below: number[]): NnDistance[] {
  const out: NnDistance[] = [];
  dims.forEach((n, i) => {
    for (let u = 0; u < users[i]; u++) out.push({ dataset, n, user: String(u), distance: u < below[i] ? 0.05 : 0.3 });
  });
  return out;
}
