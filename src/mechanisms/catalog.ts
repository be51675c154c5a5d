/**
 * What the built-in mechanisms are, without their code: names, descriptions and the facts the
 * grid, the tables and `lshdp mechanisms` read. Each mechanism's module spreads its entry into
 * its object (the single source), so listing them loads no sampler, kernel or accountant.
 */
import type { Mechanism } from './types.js';
import { MECHANISM_ALGORITHMS } from './versions.js';
import { ACCOUNTANT_NAMES } from '../privacy/accountantNames.js';

/** The plain part of a Mechanism (everything but its functions: `epsilon`, `encode`, `angleLogDensity`). */
export type MechanismFacts = Omit<Mechanism, 'epsilon' | 'encode' | 'angleLogDensity'>;

const facts = <T extends MechanismFacts>(f: T): T => Object.freeze(f);

export const BUILT_IN = {
  exact: facts({ name: 'exact', description: 'true angular k-NN (the reference: utility loss 0, recall 1)', kind: 'exact', usesKappa: false, usesXi: false, optionKeys: [] }),
  lsh: facts({
    name: 'lsh',
    description: 'vanilla random-projection LSH, no noise (non-private baseline)',
    kind: 'code',
    usesKappa: true,
    usesXi: false,
    cleanIsLshCode: true,
    optionKeys: [],
    roles: ['clean-lsh'],
  }),
  lshrr: facts({
    name: 'lshrr',
    description: 'LSH then bitwise randomized response (flip probability 1/(1+e^eps))',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    hasFallback: true,
    // its history: src/mechanisms/versions.ts
    algorithm: MECHANISM_ALGORITHMS.lshrr,
    epsilonKind: 'bit',
    cleanIsLshCode: true,
    optionKeys: [],
    accountants: ACCOUNTANT_NAMES,
    budgetRows: 'accountant',
    flipsBits: true,
    ldpNote: 'κ·ε_bit for LSHRR',
    roles: ['bitwise-rr'],
  }),
  laplsh: facts({
    name: 'laplsh',
    description: 'multivariate Laplace noise on the vector, then LSH',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    epsilonKind: 'lap',
    cleanIsLshCode: true,
    noisesVector: true,
    // its history: src/mechanisms/versions.ts
    algorithm: MECHANISM_ALGORITHMS.laplsh,
    optionKeys: ['sampler'],
    ldpNote: '2·ε_Lap for LapLSH',
    roles: ['laplace-vector'],
  }),
  rappor: facts({
    name: 'rappor',
    description: 'Bloom filter of the item set (m = kappa bits, h hashes) then bitwise randomized response',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    bloomFilter: true,
    hashesFromNoise: true,
    optionKeys: ['hashes'],
    ldpNote: 'ε for RAPPOR',
  }),
  'rappor-vector': facts({
    name: 'rappor-vector',
    description: 'RAPPOR on the whole vector as one value (m = kappa bits, h hashes) then bitwise randomized response',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    bloomFilter: true,
    hashesFromNoise: true,
    optionKeys: ['hashes'],
    ldpNote: 'ε for RAPPOR',
    roles: ['bloom-whole-vector'],
  }),
  vmf: facts({
    name: 'vmf',
    description: 'von Mises–Fisher direction around the vector (Euclidean-metric DP), then LSH',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    epsilonKind: 'concentration',
    noisesVector: true,
    concentrationMetric: 'euclidean',
    algorithm: MECHANISM_ALGORITHMS.vmf,
    optionKeys: ['sampler'],
    budgetRows: 'concentration',
    roles: ['directional-euclidean'],
  }),
  purkayastha: facts({
    name: 'purkayastha',
    description: 'Purkayastha direction around the vector (angular-metric DP), then LSH',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    epsilonKind: 'concentration',
    noisesVector: true,
    concentrationMetric: 'angle',
    algorithm: MECHANISM_ALGORITHMS.purkayastha,
    optionKeys: ['sampler'],
    budgetRows: 'concentration',
    roles: ['directional-angular'],
  }),
} as const satisfies Record<string, MechanismFacts>;

/** The built-ins in the canonical order (the registry's). */
export const BUILT_IN_FACTS: readonly MechanismFacts[] = [
  BUILT_IN.exact,
  BUILT_IN.lsh,
  BUILT_IN.lshrr,
  BUILT_IN.laplsh,
  BUILT_IN.rappor,
  BUILT_IN['rappor-vector'],
  BUILT_IN.vmf,
  BUILT_IN.purkayastha,
];

/**
 * The built-ins `lshdp encode --mechanism` releases codes of: those that release a code, but those
 * that draw their hash functions from the secret noise (RAPPOR: codes released apart could not be
 * compared). encode checks against it and completion offers it.
 */
export const ENCODE_MECHANISMS: readonly string[] = BUILT_IN_FACTS.filter((m) => m.kind === 'code' && !m.hashesFromNoise).map((m) => m.name);

/** The built-in of that name, or undefined (a plugin, a name from another version's folder). */
export function builtInFacts(name: string): MechanismFacts | undefined {
  return BUILT_IN_FACTS.find((f) => f.name === name);
}

/** The built-ins with rows in the budget tables (`lshdp table budgets --mechanism`, budgets.csv). */
export const BUDGET_MECHANISMS: readonly string[] = BUILT_IN_FACTS.filter((m) => m.budgetRows !== undefined).map((m) => m.name);

/** The built-in whose budget rows are one per accountant (LSHRR): its name fills budgets.csv's
 *  mechanism column on those rows, and it is `lshdp table budgets`' default. */
export const ACCOUNTANT_ROWS_MECHANISM: string = BUILT_IN_FACTS.find((m) => m.budgetRows === 'accountant')!.name;
