/**
 * LSHRR: the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts } from '../types.js';
import { ACCOUNTANT_NAMES } from '../../privacy/accountantNames.js';

export const LSHRR_FACTS = declareFacts({
  name: 'lshrr',
  description: 'LSH then bitwise randomized response (flip probability 1/(1+e^eps))',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  hasFallback: true,
  // The version of its own draws (Mechanism.algorithm): bump it when a change alters its numbers;
  // its stored results are recomputed, the other mechanisms' reused. History: 2: exact
  // Bernoulli(T/2^32) flips, 32 bits per word (flipBitsOnGrid), T/2^32 a margin above 1/(1+e^eps)
  // (realizedFlipProbability): the realized per-bit eps is strictly below the accountant's, never
  // above a jump point (was flipBits' geometric, masked and per-bit paths).
  algorithm: '2',
  epsilonKind: 'bit',
  cleanIsLshCode: true,
  accountants: ACCOUNTANT_NAMES,
  budgetRows: 'accountant',
  flipsBits: true,
  ldpNote: 'κ·ε_bit for LSHRR',
  roles: ['bitwise-rr'],
});
