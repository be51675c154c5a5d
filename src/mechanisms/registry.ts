import type { Mechanism } from './types.js';
import { UserError } from '../util/errors.js';
import { exactMechanism } from './exact.js';
import { lshMechanism } from './lsh.js';
import { lshrrMechanism } from './lshrr.js';
import { laplshMechanism } from './laplsh.js';
import { rapporMechanism, rapporVectorMechanism } from './rappor.js';

const MECHANISMS: readonly Mechanism[] = [exactMechanism, lshMechanism, lshrrMechanism, laplshMechanism, rapporMechanism, rapporVectorMechanism];

/** Every mechanism, in the canonical order exact, lsh, lshrr, laplsh, rappor, rappor-vector. */
export function listMechanisms(): readonly Mechanism[] {
  return MECHANISMS;
}

export function getMechanism(name: string): Mechanism {
  const m = MECHANISMS.find((x) => x.name === name);
  if (!m) throw new UserError(`unknown mechanism "${name}" (known: ${MECHANISMS.map((x) => x.name).join(', ')})`);
  return m;
}
