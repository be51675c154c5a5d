/**
 * Constructed per-trial values for the linkage attack's claims: attack values (reid@1 per
 * (n, κ, mechanism, ξ, known, trial)) and the utility values of the same points, with a shared
 * per-(n, κ, trial) effect that paired tests cancel and independent noise, from fixed seeds.
 */
import { datasetContext, evaluateClaims } from '../../src/claims/evaluate.js';
import { ATTACK_CLAIMS } from '../../src/claims/attack.js';
import type { ClaimResult, ClaimsInput } from '../../src/claims/types.js';
import type { AttackTrialValue, TrialValue } from '../../src/experiment/trialValues.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

export interface Entry {
  label: string;
  base: string;
  accountant?: string | null;
  /** null: one series without ξ (lsh) */
  xis: (number | null)[];
  /** mean reid@1 and mean loss of a point */
  reid: (p: { n: number; kappa: number; xi: number | null; known: number }) => number;
  loss?: (p: { n: number; kappa: number; xi: number | null }) => number;
  /** per-trial sd of both (default 0.01) */
  noise?: number;
}

export interface Grid {
  dims: number[];
  kappa: number[];
  known: number[];
  k?: number[];
  trials: number;
  /** released codes N per n (default 10 n) */
  users?: (n: number) => number;
  /** sd of the per-(n, κ, trial) effect every entry shares (default 0.02) */
  shared?: number;
  seed?: string;
  entries: Entry[];
}

/** Attack and utility values of one data set `synth`, from a fixed seed. */
export function valuesOf(g: Grid): { attack: AttackTrialValue[]; values: TrialValue[] } {
  const z = normalSource(makeRng(g.seed ?? 'attack-claims'));
  const attack: AttackTrialValue[] = [];
  const values: TrialValue[] = [];
  for (const n of g.dims) {
    for (const kappa of g.kappa) {
      const shared = Array.from({ length: g.trials }, () => (g.shared ?? 0.02) * z());
      for (const e of g.entries) {
        const accountant = e.accountant === undefined ? (e.base === 'lshrr' ? 'paper' : null) : e.accountant;
        for (const xi of e.xis) {
          for (let trial = 0; trial < g.trials; trial++) {
            const users = g.users?.(n) ?? 10 * n;
            for (const known of g.known) {
              const reid1 = e.reid({ n, kappa, xi, known }) + shared[trial] + (e.noise ?? 0.01) * z();
              attack.push({ dataset: 'synth', n, kappa, mechanism: e.label, base: e.base, accountant, xi, known, trial, reid1, reid10: reid1, users, targets: users });
            }
            for (const k of g.k ?? [10]) {
              const loss = (e.loss?.({ n, kappa, xi }) ?? 0.1) + shared[trial] + (e.noise ?? 0.01) * z();
              values.push({ dataset: 'synth', n, kappa, k, mechanism: e.label, base: e.base, accountant, xi, trial, loss, recall: 0 });
            }
          }
        }
      }
    }
  }
  return { attack, values };
}

export function inputOf(g: Grid, extra: Partial<ClaimsInput> = {}): ClaimsInput {
  const { attack, values } = valuesOf(g);
  const config = { datasets: ['synth'], dims: g.dims, kappa: g.kappa, k: g.k ?? [10], xi: [], d: 0.1, delta: 0.01, trials: g.trials, queries: 0 };
  return { config, values, nn: [], attack, ...extra };
}

export function claim(input: ClaimsInput, id: string): ClaimResult {
  const r = evaluateClaims(input).find((x) => x.id === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
}

/** One claim alone on data set `synth` (what evaluateClaims does for it), for the many simulated families. */
export function only(input: ClaimsInput, id: string): Pick<ClaimResult, 'verdict'> {
  const def = ATTACK_CLAIMS.find((c) => c.id === id)!;
  return def.evaluate(datasetContext(input, 'synth', 0.05));
}

export const lsh = (reid: Entry['reid'], noise?: number): Entry => ({ label: 'lsh', base: 'lsh', xis: [null], reid, noise });
export const rr = (reid: Entry['reid'], loss?: Entry['loss'], xis: number[] = [0, 1, 5, 20]): Entry => ({ label: 'lshrr', base: 'lshrr', xis, reid, loss });
export const lap = (reid: Entry['reid'], loss?: Entry['loss'], xis: number[] = [0, 1, 5, 20]): Entry => ({ label: 'laplsh', base: 'laplsh', xis, reid, loss });
/** reid@1 rising by 0.05 per step of the grid's ξ (0, 1, 5, 20) */
export const rising = ({ xi }: { xi: number | null }) => 0.01 + 0.05 * [0, 1, 5, 20].indexOf(xi!);
