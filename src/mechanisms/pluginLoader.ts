/**
 * Loading a plugin module (by path, asynchronously or synchronously for configs and worker
 * threads), checking its default export, and registering a run's plugins in a thread's registry.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MECHANISM_ROLES } from './types.js';
import { UserError } from '../util/errors.js';
import { RELEASE_KINDS } from '../lsh/releases.js';
import type { MechanismPlugin } from './pluginContract.js';
import { firstLine, where } from './pluginChecks.js';

/** A validated plugin, where it came from and the SHA-256 of its file (part of result identities). */
export interface LoadedPlugin {
  plugin: MechanismPlugin;
  /** the module path as given (for messages) */
  path: string;
  /** absolute path of the module file */
  file: string;
  sha256: string;
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Checks the shape of a default export; returns it typed. Exported for tests. */
export function validatePlugin(value: unknown, path: string): MechanismPlugin {
  const w = where(path);
  if (value === null || typeof value !== 'object') throw new UserError(`${w}: has no default export object (export default { name, usesXi, encode, ... })`);
  const p = value as Record<string, unknown>;
  if (typeof p.name !== 'string' || !NAME_RE.test(p.name)) throw new UserError(`${w}: name must be a string of letters, digits, '-' or '_' starting with a letter, got ${JSON.stringify(p.name)}`);
  if (typeof p.encode !== 'function') throw new UserError(`${w}: lacks an encode function`);
  if (typeof p.usesXi !== 'boolean') throw new UserError(`${w}: usesXi must be true or false, got ${JSON.stringify(p.usesXi)}`);
  if (p.usesXi && typeof p.epsilon !== 'function') throw new UserError(`${w}: usesXi is true but it lacks an epsilon function`);
  if (p.epsilon !== undefined && typeof p.epsilon !== 'function') throw new UserError(`${w}: epsilon must be a function`);
  if (p.description !== undefined && typeof p.description !== 'string') throw new UserError(`${w}: description must be a string`);
  if (p.optionKeys !== undefined && !(Array.isArray(p.optionKeys) && p.optionKeys.every((k) => typeof k === 'string'))) throw new UserError(`${w}: optionKeys must be an array of strings`);
  checkDeclaredFacts(p, w);
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

/**
 * Loads and validates a plugin module. `path` is resolved against `baseDir` (the config file's
 * folder; default the working directory). Fails with a one-line UserError naming the module when
 * the file is missing, does not load, or its default export breaks the contract.
 */
export async function loadPlugin(path: string, baseDir = process.cwd()): Promise<LoadedPlugin> {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  let mod: { default?: unknown };
  try {
    // the hash in the URL: an edited file is a new module even within one process
    mod = (await import(`${pathToFileURL(file).href}?sha256=${sha256}`)) as { default?: unknown };
  } catch (e) {
    throw new UserError(`${where(path)}: failed to load: ${firstLine(e)}`);
  }
  return { plugin: validatePlugin(mod.default, path), path, file, sha256 };
}

const requireModule = createRequire(import.meta.url);
/** Modules loaded synchronously in this process, by file: their hash (a changed file cannot be re-required). */
const loadedSync = new Map<string, LoadedPlugin>();

/** The file's bytes and SHA-256, or a one-line error naming the module. */
function readModule(path: string, file: string): { bytes: Buffer; sha256: string } {
  try {
    if (!statSync(file).isFile()) throw new UserError(`${where(path)}: not a file`);
    const bytes = readFileSync(file);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`${where(path)}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? firstLine(e)})`}`);
  }
}

/**
 * `loadPlugin` without a Promise, for configs (parsed synchronously) and worker threads: the module
 * is loaded with require() of an ES module (Node >= 20.19), so it must not use top-level await.
 * A file that changed since this process loaded it is an error (its old code would run).
 */
export function loadPluginSync(path: string, baseDir = process.cwd()): LoadedPlugin {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  const known = loadedSync.get(file);
  if (known) {
    if (known.sha256 !== sha256) throw new UserError(`${where(path)}: the file changed while lshdp was running; run again`);
    return { ...known, path };
  }
  let mod: { default?: unknown };
  try {
    mod = requireModule(file) as { default?: unknown };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ERR_REQUIRE_ASYNC_MODULE' ? 'it (or a module it imports) uses top-level await, which plugins may not' : firstLine(e);
    throw new UserError(`${where(path)}: failed to load: ${why}`);
  }
  const loaded = { plugin: validatePlugin(mod.default, path), path, file, sha256 };
  loadedSync.set(file, loaded);
  return loaded;
}

/** A plugin a run uses: where its file is and the hash the config saw (workers check it). */
export interface PluginRef {
  name: string;
  file: string;
  sha256: string;
}
