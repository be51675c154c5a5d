/**
 * The checks of a plugin module's default export, by contract version (PLUGIN_API_VERSIONS): what
 * it must have, and the types of what it declares. A violation is a one-line UserError naming the
 * module.
 */
import { UserError } from '../util/errors.js';
import { RELEASE_KINDS } from '../lsh/releases.js';
import { METRICS } from '../lsh/families/types.js';
import { MECHANISM_ROLES } from './types.js';
import { PLUGIN_API_VERSIONS, PLUGIN_INTERNAL_FIELDS, type MechanismPlugin } from './pluginContract.js';
import { where } from './pluginChecks.js';
import { optionSchemaProblems } from './pluginOptions.js';

const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Checks the shape of a default export; returns it typed. Exported for tests. */
export function validatePlugin(value: unknown, path: string): MechanismPlugin {
  const w = where(path);
  if (value === null || typeof value !== 'object') throw new UserError(`${w}: has no default export object (export default { name, usesXi, encode, ... })`);
  const p = value as Record<string, unknown>;
  const version = p.apiVersion ?? 1;
  if (!(PLUGIN_API_VERSIONS as readonly unknown[]).includes(version))
    throw new UserError(`${w}: apiVersion ${JSON.stringify(p.apiVersion)} is not a plugin contract this lshdp runs (it runs apiVersion ${PLUGIN_API_VERSIONS.join(' and ')}; none means 1)`);
  if (typeof p.name !== 'string' || !NAME_RE.test(p.name)) throw new UserError(`${w}: name must be a string of letters, digits, '-' or '_' starting with a letter, got ${JSON.stringify(p.name)}`);
  if (typeof p.encode !== 'function') throw new UserError(`${w}: lacks an encode function`);
  if (typeof p.usesXi !== 'boolean') throw new UserError(`${w}: usesXi must be true or false, got ${JSON.stringify(p.usesXi)}`);
  if (p.usesXi && typeof p.epsilon !== 'function') throw new UserError(`${w}: usesXi is true but it lacks an epsilon function`);
  for (const key of ['epsilon', 'releaseLaw'] as const) if (p[key] !== undefined && typeof p[key] !== 'function') throw new UserError(`${w}: ${key} must be a function`);
  if (p.description !== undefined && typeof p.description !== 'string') throw new UserError(`${w}: description must be a string`);
  checkDeclaredFacts(p, w);
  if (version === 1) {
    if (p.optionKeys !== undefined && !(Array.isArray(p.optionKeys) && p.optionKeys.every((k) => typeof k === 'string'))) throw new UserError(`${w}: optionKeys must be an array of strings`);
  } else checkVersion2(p, w);
  return p as unknown as MechanismPlugin;
}

/** The declared facts' types: strings, booleans, roles among MECHANISM_ROLES. */
function checkDeclaredFacts(p: Record<string, unknown>, w: string): void {
  for (const key of ['algorithm', 'ldpNote'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'string') throw new UserError(`${w}: ${key} must be a string`);
  }
  for (const key of ['cleanIsLshCode', 'bloomFilter', 'flipsBits', 'hashesFromNoise'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean') throw new UserError(`${w}: ${key} must be true or false, got ${JSON.stringify(p[key])}`);
  }
  if (p.release !== undefined && !(RELEASE_KINDS as readonly unknown[]).includes(p.release))
    throw new UserError(`${w}: release must be one of ${RELEASE_KINDS.join(', ')}; got ${JSON.stringify(p.release)}`);
  const roles = p.roles;
  if (roles === undefined) return;
  const known = MECHANISM_ROLES as readonly unknown[];
  if (!Array.isArray(roles) || !roles.every((r) => known.includes(r))) throw new UserError(`${w}: roles must be an array of: ${MECHANISM_ROLES.join(', ')}; got ${JSON.stringify(roles)}`);
}

/** The values a version-2 plugin's enumerated facts may take. */
const ENUMS: Record<string, readonly unknown[]> = {
  epsilonKind: ['bit', 'lap', 'concentration'],
  concentrationMetric: ['euclidean', 'angle'],
  metric: METRICS,
  // 'accountant' and 'concentration' rows are LSHRR's and the directional built-ins' own tables
  budgetRows: ['own'],
};

/** What version 2 adds: Mechanism's other fields, typed; none of lshdp's internal ones. */
function checkVersion2(p: Record<string, unknown>, w: string): void {
  for (const key of PLUGIN_INTERNAL_FIELDS) {
    if (p[key] !== undefined) throw new UserError(`${w}: ${key} is set by lshdp for every plugin, not declared (apiVersion 2${key === 'optionKeys' ? '; declare optionSchema instead' : ''})`);
  }
  for (const key of ['budgetRow', 'positionDisagreement', 'angleLogDensity', 'inflate'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'function') throw new UserError(`${w}: ${key} must be a function`);
  }
  for (const key of ['noisesVector', 'hasFallback'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean') throw new UserError(`${w}: ${key} must be true or false, got ${JSON.stringify(p[key])}`);
  }
  if (p.releaseRule !== undefined && typeof p.releaseRule !== 'string') throw new UserError(`${w}: releaseRule must be a string`);
  for (const [key, values] of Object.entries(ENUMS)) {
    if (p[key] !== undefined && !values.includes(p[key])) throw new UserError(`${w}: ${key} must be one of ${values.join(', ')}; got ${JSON.stringify(p[key])}`);
  }
  if (p.budgetRows === 'own' && typeof p.budgetRow !== 'function') throw new UserError(`${w}: budgetRows 'own' needs a budgetRow function`);
  if (p.accountants !== undefined && !(Array.isArray(p.accountants) && p.accountants.every((a) => typeof a === 'string' && a.length > 0)))
    throw new UserError(`${w}: accountants must be an array of names (the first is the default)`);
  const schema = optionSchemaProblems(p.optionSchema);
  if (schema.length) throw new UserError(`${w}: ${schema[0]}`);
}
