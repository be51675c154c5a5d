import type { Mechanism, MechanismInfo, MechanismRole } from './types.js';
import { UserError } from '../util/errors.js';
import { exactMechanism } from './exact/mechanism.js';
import { lshMechanism } from './lsh/mechanism.js';
import { lshrrMechanism } from './lshrr/mechanism.js';
import { laplshMechanism } from './laplsh/mechanism.js';
import { rapporMechanism, rapporVectorMechanism } from './rappor/mechanism.js';
import { purkayasthaMechanism, vmfMechanism } from './directional/mechanism.js';
import { jlGaussianMechanism } from './jl/mechanism.js';
import { minhashBucketMechanism, minhashNoisyMechanism } from './minhash/mechanism.js';

const MECHANISMS: readonly Mechanism[] = [
  exactMechanism,
  lshMechanism,
  lshrrMechanism,
  laplshMechanism,
  rapporMechanism,
  rapporVectorMechanism,
  vmfMechanism,
  purkayasthaMechanism,
  jlGaussianMechanism,
  minhashBucketMechanism,
  minhashNoisyMechanism,
];

/** Every mechanism, in the canonical order exact, lsh, lshrr, laplsh, rappor, rappor-vector, vmf, purkayastha, jl-gaussian, minhash-bucket, minhash-noisy. */
export function listMechanisms(): readonly Mechanism[] {
  return MECHANISMS;
}

/** Mechanisms registered at run time (plugins, src/mechanisms/plugin.ts), by registry name. */
const REGISTERED = new Map<string, Mechanism>();

/** The mechanism of that name: a built-in, or a registered plugin; a one-line UserError otherwise. */
export function getMechanism(name: string): Mechanism {
  const m = findMechanism(name);
  if (!m) throw new UserError(`unknown mechanism "${name}" (known: ${[...MECHANISMS.map((x) => x.name), ...REGISTERED.keys()].join(', ')})`);
  return m;
}

/** The mechanism of that name (a built-in or a registered plugin), or undefined. */
export function findMechanism(name: string): Mechanism | undefined {
  return MECHANISMS.find((x) => x.name === name) ?? REGISTERED.get(name);
}

/** Whether the mechanism of that name declares the role (false for a name not known here). */
export function hasRole(name: string, role: MechanismRole): boolean {
  return findMechanism(name)?.roles?.includes(role) ?? false;
}

/** The plain facts of the mechanism of that name (a one-line UserError for an unknown name). */
export function mechanismInfo(name: string): MechanismInfo {
  const m = getMechanism(name);
  return {
    kind: m.kind,
    usesKappa: m.usesKappa,
    usesXi: m.usesXi,
    epsilonKind: m.epsilonKind ?? null,
    hasFallback: m.hasFallback ?? false,
    ...(m.concentrationMetric ? { concentrationMetric: m.concentrationMetric } : {}),
    ...(m.algorithm ? { algorithm: m.algorithm } : {}),
  };
}

/**
 * Makes `mechanism` known to getMechanism under `key` (default its name), e.g. a plugin; a
 * built-in name cannot be taken. Registering the same key again replaces the entry (a worker
 * re-loading a plugin). Returns the key.
 */
export function registerMechanism(mechanism: Mechanism, key = mechanism.name): string {
  if (MECHANISMS.some((x) => x.name === key)) throw new UserError(`mechanism "${key}" is built in; a plugin needs another name`);
  // a registered mechanism may wrap a built-in's encode (spreading its fields) and change its
  // release: the built-in's clean release would not be the wrapper's, so none is kept for it
  if (mechanism.keepsClean) {
    const { keepsClean: _kept, ...own } = mechanism;
    REGISTERED.set(key, own);
  } else REGISTERED.set(key, mechanism);
  return key;
}

/** The keys of the mechanisms registered at run time (plugins), in registration order. */
export function registeredKeys(): string[] {
  return [...REGISTERED.keys()];
}

/** Forgets a registered mechanism (tests; a library user swapping plugins). */
export function unregisterMechanism(key: string): void {
  REGISTERED.delete(key);
}
