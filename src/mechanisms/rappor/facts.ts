/**
 * RAPPOR, on the item set (rappor) and on the whole vector as one value (rappor-vector): the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts, type OptionSpec } from '../types.js';

/** Bloom hash functions per bit position when the entry gives none. */
export const DEFAULT_RAPPOR_HASHES = 2;

/** RAPPOR's option: how many Bloom hash functions set bits per value. */
export const HASHES_OPTION = {
  type: 'integer',
  min: 1,
  max: 64,
  default: DEFAULT_RAPPOR_HASHES,
  noun: 'hashes',
} as const satisfies OptionSpec;

export const RAPPOR_FACTS = declareFacts({
  name: 'rappor',
  description: 'Bloom filter of the item set (m = kappa bits, h hashes) then bitwise randomized response',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  bloomFilter: true,
  hashesFromNoise: true,
  keepsClean: true,
  optionSchema: { hashes: HASHES_OPTION },
  ldpNote: 'ε for RAPPOR',
});

export const RAPPOR_VECTOR_FACTS = declareFacts({
  name: 'rappor-vector',
  description: 'RAPPOR on the whole vector as one value (m = kappa bits, h hashes) then bitwise randomized response',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  bloomFilter: true,
  hashesFromNoise: true,
  keepsClean: true,
  optionSchema: { hashes: HASHES_OPTION },
  ldpNote: 'ε for RAPPOR',
  roles: ['bloom-whole-vector'],
});
